import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { kubectl } from '../../../tools/cluster/kubectl.mjs';
import { isReady } from '../../../tools/rollout/pod-watch.mjs';
import type { Failure } from '../../../tools/rollout/load-generator.mjs';
import { trafficTotals } from '../../../tools/rollout/traffic-totals.mjs';
import { CLUSTER_BUILDS } from '../../../tools/cluster/app-images.mjs';
import {
  createRestrictedNamespace,
  deployRelease,
  localClusterValues,
  releaseObjects,
  uninstallRelease,
  waitForNodePort,
  writeValuesFile,
} from '../../../tools/cluster/release.mjs';

export interface ReleaseRef {
  release: string;
  namespace: string;
}

interface Pod {
  metadata: { name: string; labels?: Record<string, string>; deletionTimestamp?: string };
  spec: { containers: { image: string }[] };
  status: { conditions?: { type: string; status: string }[]; podIP?: string };
}

/**
 * Installs build A of `ref` in a fresh restricted namespace, waiting for its pods and NodePort
 * unless `wait` is false; `remove()` uninstalls it and deletes the namespace.
 */
export async function installBuildA(ref: ReleaseRef, nodePort: number, extra?: Record<string, unknown>, { wait = true } = {}) {
  const dir = mkdtempSync(path.join(tmpdir(), `meridian-${ref.release}-`));
  const valuesFile = path.join(dir, 'values.json');
  writeValuesFile(valuesFile, localClusterValues(nodePort, extra));
  await createRestrictedNamespace(ref.namespace);
  await deployRelease({ ...ref, valuesFile, tag: CLUSTER_BUILDS.a, wait });
  if (wait) await waitForNodePort(ref, nodePort);
  return {
    valuesFile,
    async remove() {
      await uninstallRelease(ref);
      // Waited for: pods still draining would compete with the next file's load test.
      await kubectl(['delete', 'namespace', ref.namespace, '--ignore-not-found', '--timeout=180s']);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** The release's web pods (not `helm test`'s). */
export async function webPods(ref: ReleaseRef): Promise<Pod[]> {
  const pods = (await releaseObjects('pods', ref)) as Pod[];
  return pods.filter((pod) => pod.metadata.labels?.['app.kubernetes.io/component'] !== 'test');
}

/** Names of the release's web pods that are Ready and not terminating. */
export async function readyPods(ref: ReleaseRef): Promise<string[]> {
  return (await webPods(ref)).filter((pod) => isReady(pod) && !pod.metadata.deletionTimestamp).map((pod) => pod.metadata.name);
}

/**
 * Build A of `ref` installed before this file's tests and removed after them; the
 * returned object names the values file its later deploys use.
 */
export function releaseForThisFile(ref: ReleaseRef, nodePort: number, extra?: Record<string, unknown>): { readonly valuesFile: string } {
  let installed: Awaited<ReturnType<typeof installBuildA>> | undefined;
  beforeAll(async () => {
    installed = await installBuildA(ref, nodePort, extra);
  });
  afterAll(async () => {
    await installed?.remove();
  });
  return {
    get valuesFile() {
      if (!installed) throw new Error(`release ${ref.release} in ${ref.namespace} is not installed`);
      return installed.valuesFile;
    },
  };
}

type Traffic = Parameters<typeof trafficTotals>[0] & { errorCodes: Record<string, number>; failures: Failure[] };

/**
 * What failed, for an assertion's message: the error codes first (a long message is cut in
 * the summary), then the seconds since the load started that had failures, and the scenario's
 * events with their seconds if given: failures at the start (the Service not yet programmed),
 * at a pod's start or at its end tell different stories.
 */
function failureReport(traffic: Traffic, events: { at: number; label: string }[] = []) {
  const failing = traffic.buckets.flatMap((bucket, second) =>
    bucket.serverErrors + bucket.connectionErrors + bucket.otherStatuses > 0
      ? [{ second, serverErrors: bucket.serverErrors, connectionErrors: bucket.connectionErrors, otherStatuses: bucket.otherStatuses }]
      : [],
  );
  const timeline = events.map((event) => `${(event.at / 1000).toFixed(1)}s ${event.label}`).join('\n');
  const each = traffic.failures.map((failure) => `${failure.second}s ${failure.path} ${failure.failure}`).join(', ');
  return `error codes ${JSON.stringify(traffic.errorCodes)}; failures by second: ${JSON.stringify(failing)}; each (the first 100): ${each}${timeline ? `\nevents:\n${timeline}` : ''}`;
}

/** What the load generator saw: requests, and not one 5xx, connection error or unexpected status. */
export function expectNoFailedRequest(traffic: Traffic, events?: { at: number; label: string }[]): void {
  const totals = trafficTotals(traffic);
  expect(totals.requests).toBeGreaterThan(0);
  const failures = {
    serverErrors: totals.serverErrors,
    connectionErrors: totals.connectionErrors,
    otherStatuses: totals.otherStatuses,
    errorCodes: traffic.errorCodes,
  };
  expect(failures, failureReport(traffic, events)).toEqual({
    serverErrors: 0,
    connectionErrors: 0,
    otherStatuses: 0,
    errorCodes: {},
  });
}

/** What the load generator saw of a bad build: 5xx are its fault, a connection error never is. */
export function expectNoConnectionError(traffic: Traffic, events?: { at: number; label: string }[]): void {
  expect(
    { connectionErrors: trafficTotals(traffic).connectionErrors, errorCodes: traffic.errorCodes },
    failureReport(traffic, events),
  ).toEqual({
    connectionErrors: 0,
    errorCodes: {},
  });
}

/** Asks the API server to evict `pod`, as a node drain does; rejects when the eviction is refused. */
export function evictPod(ref: ReleaseRef, pod: string) {
  const eviction = { apiVersion: 'policy/v1', kind: 'Eviction', metadata: { name: pod, namespace: ref.namespace } };
  return kubectl(['create', '--raw', `/api/v1/namespaces/${ref.namespace}/pods/${pod}/eviction`, '-f', '-'], {
    input: JSON.stringify(eviction),
  });
}
