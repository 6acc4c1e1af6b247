// A canary release on the local cluster, for the cluster tests and
// `npm run rollout:demo -- --cluster --canary`: steady traffic through the release's
// NodePort (a new connection per request, so the Service spreads it by the canary's share
// of pods), open tabs and a stream of short visits in Chromium, while a Helm change starts
// (or ends) a canary and Argo Rollouts judges it; every second the Rollout, its pods and
// its analyses are read back.
import { NETWORK } from '../cluster/layout.mjs';
import { waitForNodePort } from '../cluster/release.mjs';
import { freePort } from '../lib/ports.mjs';
import { waitFor } from '../lib/wait.mjs';
import { startVisitors } from './canary-tabs.mjs';
import { watchCanary } from './canary-watch.mjs';
import { CLUSTER_TARGETS } from './cluster-scenario.mjs';
import { startLoad } from './load-generator.mjs';
import { createTimeline } from './witnesses.mjs';

export const CANARY_RATE_PER_SECOND = 50;
/**
 * How often the canary's Prometheus scrapes, and its scrape timeout: beside another canary
 * under load, the release's pods took 1.5 to 6 s to answer /metrics on this 2-core machine,
 * and with 1 s scrapes a canary stayed unmeasured for a minute or more after it was ready.
 */
export const CANARY_SCRAPE_INTERVAL = '5s';

/** Seconds between two measurements of the tests' analyses (canaryValues). */
export const ANALYSIS_INTERVAL_SECONDS = 10;

/**
 * Values of a canary release on this cluster, with the chart's steps (of two replicas, 20 %
 * is one canary pod beside both stable ones, a third of the connections; 50 % one of each),
 * whose analyses last 50 s rather than minutes: measured every 10 s, 4 times (3 of them may
 * lack data: a third of the visits reach the canary at 20 %, fewer still on a busy machine),
 * the first after 20 s; a window of 90 s; minimum samples a 2-core machine's visitors reach
 * in it (one page load and one LCP report: a visit takes 8 to 11 s here, and a CI run saw a
 * good canary's pod load fewer than two pages in each of four measurements that began after
 * 10 s). At the first step the stable build keeps its two pods, so an abort there takes the
 * canary's pod away at once, without waiting for a stable pod to start.
 * `prometheusAddress` is a Prometheus on the node's address, which the controller's pod reaches.
 * @param {{ prometheusAddress: string, analysis?: Record<string, unknown> }} options
 */
export function canaryValues({ prometheusAddress, analysis = {} }) {
  return {
    rollout: {
      strategy: 'canary',
      canary: {
        analysis: {
          prometheusAddress,
          interval: `${ANALYSIS_INTERVAL_SECONDS}s`,
          count: 4,
          initialDelay: '20s',
          window: '90s',
          inconclusiveLimit: 3,
          errorRatio: { minRequests: 100 },
          // A canary's first pods answer slower while Node warms up, on a busy machine.
          latencyP95: { maxIncreaseSeconds: 0.5, minRequests: 100 },
          clientFailures: { maxIncreasePerPageView: 0.05, minPageViews: 1 },
          // A canary pod's first pages paint seconds later than a warm pod's on this busy machine,
          // and p75 of a few samples is their slowest: seen up to 4.4 s for a good build.
          lcpP75: { maxIncreaseSeconds: 5, minSamples: 1, minPageViews: 1 },
          ...analysis,
        },
      },
    },
  };
}

/** A port for a Prometheus the cluster's controller can query, and its address. */
export async function nodePrometheus() {
  const port = await freePort();
  return { listen: { address: NETWORK.nodeAddress, port }, address: `http://${NETWORK.nodeAddress}:${port}` };
}

/**
 * @typedef {import('./canary-watch.mjs').CanarySample} CanarySample
 * @typedef {{ releaseRef: { release: string, namespace: string }, nodePort: number, change: () => Promise<unknown>, until: (sample: CanarySample) => boolean, untilLabel: string, giveUpWhen?: (sample: CanarySample) => boolean, ratePerSecond?: number, tabs?: number, visitors?: number, timeoutMs?: number, log?: (line: string) => void }} CanaryOptions
 */

/**
 * Runs `change` (a Helm command) under load and tabs, waits until the Rollout's sample
 * satisfies `until` (or `giveUpWhen`: a state it cannot leave for `until`'s, which the
 * caller's checks of the result then show), then lets every tab move to the stable build as
 * the poller tells it, and returns what every witness saw.
 * @param {CanaryOptions} options
 */
export async function runCanary({
  releaseRef,
  nodePort,
  change,
  until,
  untilLabel,
  giveUpWhen = () => false,
  ratePerSecond = CANARY_RATE_PER_SECOND,
  tabs = 3,
  // At 20 % a third of the visits reach the canary: enough of them for its analysis to measure.
  visitors = 4,
  timeoutMs = 300_000,
  log = () => {},
}) {
  const baseUrl = `http://127.0.0.1:${nodePort}`;
  const timeline = createTimeline(log);
  const { mark } = timeline;
  /** @type {(() => Promise<unknown>)[]} */
  const cleanups = [];
  try {
    await waitForNodePort(releaseRef, nodePort);
    const load = ratePerSecond > 0 ? startLoad({ baseUrl, ratePerSecond, targets: CLUSTER_TARGETS, keepAlive: false }) : null;
    if (load) {
      cleanups.push(load.stop);
      timeline.origin = load.startedAt;
      mark('traffic-started', `${ratePerSecond} requests/s to the NodePort of ${releaseRef.release}, a connection each`);
    }
    const watch = watchCanary(releaseRef, mark);
    cleanups.push(watch.stop);
    const browsers = tabs + visitors > 0 ? await startVisitors({ baseUrl, tabs, visitors, mark }) : null;
    if (browsers) cleanups.push(browsers.stop);
    await new Promise((resolve) => setTimeout(resolve, 3000));

    const changedAt = Date.now();
    await change();
    mark('ready', 'helm returned');
    const settled = await waitFor(
      untilLabel,
      () => {
        const sample = watch.latest();
        if (!sample || sample.at < changedAt || !(until(sample) || giveUpWhen(sample))) throw new Error(`last: ${JSON.stringify(sample)}`);
        return sample;
      },
      { timeoutMs, intervalMs: 500 },
    );
    const tabResults = browsers && settled.stableBuild ? await browsers.settleOn(settled.stableBuild) : [];
    await new Promise((resolve) => setTimeout(resolve, 2000));
    if (browsers) await browsers.stop();
    const traffic = load ? await load.stop() : { buckets: [], errorCodes: {}, failures: [] };
    await watch.stop();
    return {
      startedAt: timeline.origin,
      changedAt,
      settled,
      traffic,
      samples: watch.samples,
      analyses: watch.analyses(),
      tabs: tabResults,
      visits: browsers?.visits ?? [],
      events: timeline.sorted(),
    };
  } finally {
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => log(`cleanup failed: ${error}`));
  }
}
