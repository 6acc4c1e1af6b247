// What both rollout scenarios (haproxy, Kubernetes) share: a timeline of marked
// events, and the checks once the new build is out (the tab hears of it, reports
// it, Prometheus sees only it, and the tab's next page load is a full load of it).
import { waitFor } from '../lib/wait.mjs';
import { beaconOutcomes, buildsRunningNow, buildUpdatesReported } from './build-views.mjs';

/**
 * Events in ms since `origin` (reset once traffic starts), each also logged.
 * @param {(line: string) => void} log
 */
export function createTimeline(log) {
  /** @type {import('./scenario.mjs').RolloutEvent[]} */
  const events = [];
  const timeline = {
    origin: Date.now(),
    /** @type {import('./scenario.mjs').Mark} */
    mark(kind, label, { at = Date.now(), ...details } = {}) {
      events.push({ at: at - timeline.origin, kind, label, ...details });
      log(`${((at - timeline.origin) / 1000).toFixed(1)}s ${label}`);
    },
    /** The events, in time order. */
    sorted: () => [...events].sort((a, b) => a.at - b.at),
  };
  return timeline;
}

/**
 * After the roll to `to`: the tab's poll answered by it, its beacon counted,
 * Prometheus seeing only it, and the tab's next link click loading it in full.
 * @param {{ tab: Awaited<ReturnType<typeof import('./browser-tab.mjs').openTab>>, prometheus: Awaited<ReturnType<typeof import('./prometheus.mjs').startPrometheus>>, to: string, timeline: ReturnType<typeof createTimeline>, detectionMs: number, timeoutMs?: number }} options
 */
export async function witnessNewBuild({ tab, prometheus, to, timeline, detectionMs, timeoutMs = 10_000 }) {
  const detection = await tab.waitForPollAnswer(to, detectionMs);
  timeline.mark('tab-detected', `tab's poll answered by ${to}`, { at: detection.at, build: to });
  const buildUpdates = await waitFor(
    'the beacon of build_update_detected',
    async () => {
      const count = await buildUpdatesReported(prometheus, timeline.origin);
      if (count === 0) throw new Error('none counted yet');
      return count;
    },
    { timeoutMs },
  ).catch(async (/** @type {Error} */ error) => {
    // Which of the browser, the pods or the scrapes lost it.
    const sent = tab.beacons().map((beacon) => ({ ...beacon, at: beacon.at - timeline.origin }));
    const outcomes = await beaconOutcomes(prometheus, timeline.origin).catch((failure) => String(failure));
    throw new Error(
      `${error.message}; the tab's beacons (ms since traffic started): ${JSON.stringify(sent)}; the pods': ${JSON.stringify(outcomes)}`,
    );
  });
  const runningAfter = await waitFor(
    `Prometheus to see only ${to}`,
    async () => {
      const running = await buildsRunningNow(prometheus);
      if (Object.keys(running).join() !== to) throw new Error(`running: ${JSON.stringify(running)}`);
      return running;
    },
    { timeoutMs },
  );
  const navigation = await tab.followMenuLink();
  timeline.mark('tab-navigated', `tab's next page load answered by ${navigation.build}`, { at: navigation.at, build: navigation.build });
  return {
    buildUpdates,
    runningAfter,
    browser: {
      firstBuild: tab.firstBuild,
      beacons: tab.beacons().map((beacon) => ({ ...beacon, at: beacon.at - timeline.origin })),
      detectedAt: detection.at - timeline.origin,
      navigation: { ...navigation, at: navigation.at - timeline.origin },
    },
  };
}
