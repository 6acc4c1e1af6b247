// A canary release as the API server shows it, every second: the Rollout's phase and step,
// which build is stable and which the canary, the Ready pods of each, and every
// AnalysisRun with its measurements and verdict.
import { releaseObjects } from '../cluster/release.mjs';
import { isReady, podBuild } from './pod-watch.mjs';

const POLL_MS = 1000;

/**
 * @typedef {{ at: number, phase: string, aborted: boolean, step: number | null, paused: string[], message: string, stableBuild: string | null, canaryBuild: string | null, readyPods: Record<string, number> }} CanarySample
 * @typedef {{ name: string, build: string, startedAt: number, phase: string, endedAt: number | null, metrics: { name: string, phase: string, values: string[] }[] }} AnalysisRecord
 */

/**
 * The release's Rollout, ReplicaSets, pods and AnalysisRuns, read in one call.
 * @param {{ release: string, namespace: string }} releaseRef
 */
async function readRelease(releaseRef) {
  /** @type {any[]} */
  const items = await releaseObjects('rollouts.argoproj.io,replicasets,pods,analysisruns.argoproj.io', releaseRef);
  const ofKind = (/** @type {string} */ kind) => items.filter((item) => item.kind === kind);
  return { rollout: ofKind('Rollout')[0], replicaSets: ofKind('ReplicaSet'), pods: ofKind('Pod'), runs: ofKind('AnalysisRun') };
}

/**
 * Whether the Rollout waits for a person: paused on an analysis without enough data, which
 * Argo never resumes by itself. @param {CanarySample} sample
 */
export const pausedInconclusive = (sample) => sample.paused.includes('InconclusiveAnalysisRun');

/**
 * Polls the canary release of `releaseRef` until stopped; marks each change of step and
 * phase, each analysis started and its verdict.
 * @param {{ release: string, namespace: string }} releaseRef
 * @param {import('./scenario.mjs').Mark} mark
 */
export function watchCanary(releaseRef, mark) {
  /** @type {CanarySample[]} */
  const samples = [];
  /** @type {Map<string, AnalysisRecord>} */
  const analyses = new Map();
  let previous = '';
  const look = async () => {
    // The moment the read was asked for: the state it shows held at that moment or later.
    const askedAt = Date.now();
    const { rollout, replicaSets, pods, runs } = await readRelease(releaseRef);
    if (!rollout) return;
    /** @type {Record<string, string>} */
    const buildOfHash = {};
    for (const set of replicaSets) {
      const hash = set.metadata.labels?.['rollouts-pod-template-hash'];
      if (hash) buildOfHash[hash] = podBuild(set.spec.template);
    }
    /** @type {Record<string, number>} */
    const readyPods = {};
    for (const pod of pods) {
      if (pod.metadata.labels?.['app.kubernetes.io/component'] === 'test' || !isReady(pod) || pod.metadata.deletionTimestamp) continue;
      readyPods[podBuild(pod)] = (readyPods[podBuild(pod)] ?? 0) + 1;
    }
    const status = rollout.status ?? {};
    const stableBuild = buildOfHash[status.stableRS] ?? null;
    const currentBuild = buildOfHash[status.currentPodHash] ?? null;
    /** @type {CanarySample} */
    const sample = {
      at: askedAt,
      phase: status.phase ?? 'unknown',
      aborted: Boolean(status.abort),
      step: status.currentStepIndex ?? null,
      paused: (status.pauseConditions ?? []).map((/** @type {{ reason: string }} */ condition) => condition.reason),
      message: status.message ?? '',
      stableBuild,
      canaryBuild: currentBuild !== stableBuild ? currentBuild : null,
      readyPods,
    };
    samples.push(sample);
    const summary = `${sample.phase}${sample.aborted ? ' (aborted)' : ''} step ${sample.step} stable ${stableBuild} canary ${sample.canaryBuild} pods ${JSON.stringify(readyPods)} ${sample.paused.join(',')}`;
    if (summary !== previous)
      mark('canary-step', `rollout: ${summary}${sample.message ? ` (${sample.message})` : ''}`, {
        build: sample.canaryBuild ?? stableBuild ?? undefined,
      });
    previous = summary;
    for (const run of runs) {
      const name = run.metadata.name;
      const phase = run.status?.phase ?? 'Pending';
      const record = analyses.get(name) ?? {
        name,
        build: run.spec.args?.find((/** @type {{ name: string }} */ arg) => arg.name === 'canary-build')?.value ?? 'unknown',
        startedAt: Date.parse(run.metadata.creationTimestamp),
        phase: '',
        endedAt: null,
        metrics: [],
      };
      if (!analyses.has(name))
        mark('analysis', `analysis ${name} of ${record.build} started`, { at: record.startedAt, build: record.build });
      record.metrics = (run.status?.metricResults ?? []).map((/** @type {any} */ metric) => ({
        name: metric.name,
        phase: metric.phase,
        values: (metric.measurements ?? []).map(
          (/** @type {any} */ measurement) => `${measurement.phase}:${measurement.value ?? measurement.message ?? ''}`,
        ),
      }));
      if (['Successful', 'Failed', 'Error', 'Inconclusive'].includes(phase) && record.phase !== phase) {
        record.endedAt = Date.now();
        mark('analysis', `analysis ${name} of ${record.build}: ${phase} ${JSON.stringify(record.metrics)}`, {
          build: record.build,
          status: phase,
        });
      }
      record.phase = phase;
      analyses.set(name, record);
    }
  };
  let stopped = false;
  const loop = (async () => {
    while (!stopped) {
      await look().catch(() => {});
      await new Promise((resolve) => setTimeout(resolve, POLL_MS));
    }
  })();
  return {
    samples,
    analyses: () => [...analyses.values()],
    /** The latest sample, once there is one. */
    latest: () => samples.at(-1),
    async stop() {
      stopped = true;
      await loop;
      await look().catch(() => {});
    },
  };
}
