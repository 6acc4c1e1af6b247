// The release's pods during a rollout, seen from the API server twice a second:
// each pod a lane of the chart, its Ready, termination and removal as events.
import { releaseObjects } from '../cluster/release.mjs';

const POLL_MS = 500;

/**
 * What this module reads of a pod (the API server always sets these).
 * @typedef {{ spec: { containers: { image: string }[], nodeName?: string } }} PodTemplate
 * @typedef {PodTemplate & { metadata: { name: string, labels?: Record<string, string>, deletionTimestamp?: string }, status?: { conditions?: { type: string, status: string }[] } }} Pod
 */

/**
 * The release's pods.
 * @param {{ release: string, namespace: string }} releaseRef
 * @returns {Promise<Pod[]>}
 */
export const releasePods = (releaseRef) => releaseObjects('pods', releaseRef);

/**
 * Whether a pod's Ready condition is True (it is in its Services' endpoints).
 * @param {Pod} pod
 */
export const isReady = (pod) =>
  pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;

/**
 * The build a pod runs: its image tag (the image tag is the build id).
 * @param {PodTemplate} pod
 */
export const podBuild = (pod) => pod.spec.containers[0]?.image.split(':').at(-1) ?? 'unknown';

/**
 * Polls the release's web pods and marks what changed: 'rotation' UP/DOWN as a
 * pod enters or leaves the Service's endpoints (Ready), 'sigterm' when the API
 * server marks it for deletion (the kubelet signals it then), 'exited' when it is gone.
 * @param {{ release: string, namespace: string }} releaseRef
 * @param {import('./scenario.mjs').Mark} mark
 */
export function watchPods(releaseRef, mark) {
  /** @type {Map<string, { ready: boolean, terminating: boolean }>} */
  const known = new Map();
  let first = true;
  const look = async () => {
    const pods = (await releasePods(releaseRef)).filter((pod) => pod.metadata.labels?.['app.kubernetes.io/component'] !== 'test');
    const seen = new Set();
    for (const pod of pods) {
      const name = pod.metadata.name;
      seen.add(name);
      const now = { ready: isReady(pod), terminating: Boolean(pod.metadata.deletionTimestamp) };
      const before = known.get(name) ?? { ready: first ? now.ready : false, terminating: false };
      const details = { slot: name, build: podBuild(pod) };
      if (now.terminating && !before.terminating) mark('sigterm', `pod ${name} (${details.build}) terminating`, details);
      if (now.ready !== before.ready)
        mark('rotation', `pod ${name} (${details.build}) ${now.ready ? 'Ready' : 'not Ready'}`, {
          ...details,
          status: now.ready ? 'UP' : 'DOWN',
        });
      known.set(name, now);
    }
    for (const name of known.keys()) {
      if (!seen.has(name)) {
        mark('exited', `pod ${name} gone`, { slot: name });
        known.delete(name);
      }
    }
    first = false;
  };
  let stopped = false;
  let looks = 0;
  /** @type {unknown} */
  let lastError = null;
  const loop = (async () => {
    while (!stopped) {
      await look().then(
        () => (looks += 1),
        (error) => (lastError = error),
      );
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return {
    /** Stops watching; rejects if no look at the pods ever succeeded (the chart would have no lanes). */
    async stop() {
      stopped = true;
      await loop;
      if (looks === 0) throw new Error(`rollout: the release's pods could not be listed: ${lastError}`);
    },
  };
}
