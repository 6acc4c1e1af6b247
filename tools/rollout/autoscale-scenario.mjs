// The release's HorizontalPodAutoscaler under a load ramp on the local cluster of several
// nodes: haproxy in front of every node's NodePort, a light steady load throughout, heavier
// loads added one after another until the autoscaler has scaled out, then taken away until
// it has scaled back in; the autoscaler's view and the Ready pods per node sampled every
// second. Every request of every load is counted.
import { setTimeout as sleep } from 'node:timers/promises';
import { kubectl } from '../cluster/kubectl.mjs';
import { CLUSTER_TARGETS } from './cluster-scenario.mjs';
import { balancerInFrontOfNodes, readyPodsPerNode } from './drain-scenario.mjs';
import { startLoad } from './load-generator.mjs';
import { addCounts, emptyCounts } from './traffic-totals.mjs';

/** @typedef {import('../cluster/layout.mjs').ClusterNode} ClusterNode */
/** @typedef {{ release: string, namespace: string }} ReleaseRef */
/** @typedef {ReturnType<typeof emptyCounts> & { second: number }} Bucket */
/** @typedef {import('./load-generator.mjs').Failure} Failure */
/** @typedef {{ buckets: Bucket[], errorCodes: Record<string, number>, failures: Failure[] }} Traffic */

const SAMPLE_EVERY_MS = 1000;

/**
 * The counts of loads started at different times as one run's: each load's seconds moved
 * to seconds since `origin`.
 * @param {number} origin @param {{ startedAt: number, traffic: Traffic }[]} loads
 * @returns {Traffic}
 */
export function mergedTraffic(origin, loads) {
  /** @type {Bucket[]} */
  const buckets = [];
  /** @type {Record<string, number>} */
  const errorCodes = {};
  /** @type {Failure[]} */
  const failures = [];
  for (const { startedAt, traffic } of loads) {
    const offset = Math.round((startedAt - origin) / 1000);
    traffic.buckets.forEach((bucket, second) => {
      const at = second + offset;
      for (let next = buckets.length; next <= at; next += 1) buckets.push({ ...emptyCounts(), second: next });
      addCounts(/** @type {Bucket} */ (buckets[at]), bucket);
    });
    for (const [code, count] of Object.entries(traffic.errorCodes)) errorCodes[code] = (errorCodes[code] ?? 0) + count;
    failures.push(...traffic.failures.map((failure) => ({ ...failure, second: failure.second + offset })));
  }
  return { buckets, errorCodes, failures: failures.sort((one, other) => one.second - other.second) };
}

/**
 * A Kubernetes quantity as a number: the autoscaler writes averages as `36500m`.
 * @param {string} quantity
 */
export function quantityValue(quantity) {
  const match = /^(\d+(?:\.\d+)?)(m|k)?$/.exec(quantity);
  if (!match) throw new Error(`autoscale: ${JSON.stringify(quantity)} is not a quantity this reads (digits, then m or k)`);
  const scale = match[2] === 'm' ? 0.001 : match[2] === 'k' ? 1000 : 1;
  return Number(match[1]) * scale;
}

/** What the autoscaler of `releaseRef` sees and wants now. @param {ReleaseRef} releaseRef */
export async function autoscalerView({ release, namespace }) {
  const { stdout } = await kubectl(['get', 'hpa', release, '--namespace', namespace, '-o', 'json']);
  const hpa = JSON.parse(stdout);
  const metrics = hpa.status.currentMetrics ?? [];
  const cpu = metrics.find((/** @type {any} */ metric) => metric.resource?.name === 'cpu');
  const perPod = metrics.find((/** @type {any} */ metric) => metric.type === 'Pods');
  return {
    current: Number(hpa.status.currentReplicas ?? 0),
    desired: Number(hpa.status.desiredReplicas ?? 0),
    /** Average CPU use of the pods, in percent of their request; undefined while the autoscaler has no metric. */
    cpuPercent: cpu?.resource?.current?.averageUtilization,
    /** The pods metric's average (requests per second per pod); undefined without one. */
    perPodAverage: perPod ? quantityValue(perPod.pods.current.averageValue) : undefined,
    /** @type {{ type: string, status: string, reason?: string, message?: string }[]} */
    conditions: hpa.status.conditions ?? [],
  };
}

/**
 * Ramps load up through a balancer in front of every node until `scaledOut(sample)` holds,
 * then takes the ramp away (the steady load stays) until `scaledIn(sample)` holds, three
 * seconds more, and stops. Each step adds `stepRatePerSecond` every `stepMs`, at most `steps`.
 * @param {{
 *   releaseRef: ReleaseRef, nodePort: number, nodes: ClusterNode[],
 *   steadyRatePerSecond: number, stepRatePerSecond: number, stepMs: number, steps: number,
 *   scaledOut: (sample: AutoscaleSample) => boolean, scaledIn: (sample: AutoscaleSample) => boolean,
 *   timeoutMs: number, log?: (line: string) => void,
 * }} options
 */
export async function autoscaleUnderRamp(options) {
  const { releaseRef, nodePort, nodes, log = () => {} } = options;
  const balancer = await balancerInFrontOfNodes(nodes, nodePort);
  const origin = Date.now();
  /** @type {AutoscaleSample[]} */
  const samples = [];
  /** @type {{ at: number, label: string }[]} */
  const events = [];
  const mark = (/** @type {string} */ label) => {
    events.push({ at: Date.now() - origin, label });
    log(`${((Date.now() - origin) / 1000).toFixed(1)}s ${label}`);
  };
  const steady = startLoad({ baseUrl: balancer.url, ratePerSecond: options.steadyRatePerSecond, targets: CLUSTER_TARGETS });
  /** The ramp's loads still sending. @type {ReturnType<typeof startLoad>[]} */
  const ramp = [];
  let rampSteps = 0;
  /** @type {{ startedAt: number, traffic: Traffic }[]} */
  const finished = [];
  const stopRamp = async () => {
    for (const load of ramp.splice(0)) finished.push({ startedAt: load.startedAt, traffic: await load.stop() });
  };
  let offered = options.steadyRatePerSecond;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const [view, perNode] = await Promise.all([autoscalerView(releaseRef), readyPodsPerNode(releaseRef, nodes)]);
      samples.push({ at: Date.now() - origin, offeredPerSecond: offered, ...view, perNode });
      await sleep(SAMPLE_EVERY_MS);
    }
  })();
  /** @param {(sample: AutoscaleSample) => boolean} condition @param {string} what @param {() => void} [eachStep] */
  const until = async (condition, what, eachStep) => {
    const deadline = Date.now() + options.timeoutMs;
    let nextStep = Date.now();
    for (;;) {
      const last = samples.at(-1);
      if (last && condition(last)) return;
      if (Date.now() > deadline)
        throw new Error(`autoscale: ${what} not reached in ${options.timeoutMs / 1000} s: ${JSON.stringify(last)}`);
      if (eachStep && Date.now() >= nextStep) {
        eachStep();
        nextStep = Date.now() + options.stepMs;
      }
      await sleep(250);
    }
  };
  try {
    await sleep(2000);
    await until(options.scaledOut, 'scaled out', () => {
      if (rampSteps >= options.steps) return;
      rampSteps += 1;
      ramp.push(startLoad({ baseUrl: balancer.url, ratePerSecond: options.stepRatePerSecond, targets: CLUSTER_TARGETS }));
      offered += options.stepRatePerSecond;
      mark(`load raised to ${offered} req/s`);
    });
    mark(`scaled out to ${samples.at(-1)?.current} pods`);
    await stopRamp();
    offered = options.steadyRatePerSecond;
    mark(`load back to ${offered} req/s`);
    await until(options.scaledIn, 'scaled in');
    mark(`scaled in to ${samples.at(-1)?.current} pods`);
    await sleep(3000);
  } finally {
    sampling = false;
    await sampler;
    await stopRamp();
    finished.push({ startedAt: steady.startedAt, traffic: await steady.stop() });
    await balancer.stop();
  }
  return { traffic: mergedTraffic(origin, finished), samples, events, nodes: nodes.map((node) => node.name) };
}

/**
 * @typedef {{ at: number, offeredPerSecond: number, perNode: Record<string, number> } & Awaited<ReturnType<typeof autoscalerView>>} AutoscaleSample
 */
