// What Prometheus saw of the builds during a rollout, in three questions.

const BUILDS_RUNNING = 'count by (build_id) (meridian_build_info)';

/** @typedef {Awaited<ReturnType<typeof import('./prometheus.mjs').startPrometheus>>} Prometheus */

/**
 * The builds Prometheus counts as running now, by id: `{ "e2e-b": 2 }`.
 * @param {Prometheus} prometheus
 * @returns {Promise<Record<string, number>>}
 */
export async function buildsRunningNow(prometheus) {
  const samples = await prometheus.query(BUILDS_RUNNING);
  return Object.fromEntries(samples.map(({ metric, value }) => [metric.build_id, Number(value[1])]));
}

/**
 * Second by second over [startMs, endMs], which builds Prometheus counted as
 * running: how many seconds it saw each, and how many it saw both at once.
 * @param {Prometheus} prometheus
 * @param {number} startMs
 * @param {number} endMs
 */
export async function buildsSeenBetween(prometheus, startMs, endMs) {
  const series = await prometheus.queryRange(BUILDS_RUNNING, startMs, endMs);
  /** @type {Map<number, string[]>} */
  const buildsAt = new Map();
  for (const { metric, values } of series) {
    for (const [time] of values) buildsAt.set(time, [...(buildsAt.get(time) ?? []), metric.build_id ?? 'unknown']);
  }
  const seconds = Object.fromEntries(series.map(({ metric, values }) => [metric.build_id ?? 'unknown', values.length]));
  const mixedSeconds = [...buildsAt.values()].filter((builds) => builds.length > 1).length;
  return { seconds, mixedSeconds };
}

/** A PromQL range covering the time since `sinceMs`, in whole seconds. @param {number} sinceMs */
const windowSince = (sinceMs) => `${Math.ceil((Date.now() - sinceMs) / 1000)}s`;

/**
 * How many `build_update_detected` beacons the app processes counted since
 * `sinceMs`, replaced processes included: a replaced process takes its counter
 * with it, but Prometheus keeps what it scraped, so each target's highest
 * count is summed.
 * @param {Prometheus} prometheus
 * @param {number} sinceMs
 */
export async function buildUpdatesReported(prometheus, sinceMs) {
  const window = windowSince(sinceMs);
  const [sample] = await prometheus.query(`sum(max_over_time(meridian_client_events_total{event="build_update_detected"}[${window}]))`);
  return sample ? Number(sample.value[1]) : 0;
}

/**
 * What the pods did with beacons since `sinceMs`, for a report that went missing: the
 * refusals by reason and the relays by outcome, each target's highest count summed.
 * @param {Prometheus} prometheus
 * @param {number} sinceMs
 */
export async function beaconOutcomes(prometheus, sinceMs) {
  const window = windowSince(sinceMs);
  /** @param {string} metric @param {string} label */
  const byLabel = async (metric, label) =>
    Object.fromEntries(
      (await prometheus.query(`sum by (${label}) (max_over_time(${metric}[${window}]))`)).map(({ metric: labels, value }) => [
        labels[label],
        Number(value[1]),
      ]),
    );
  return {
    rejected: await byLabel('meridian_telemetry_rejected_total', 'reason'),
    relays: await byLabel('meridian_telemetry_relays_total', 'result'),
    events: await byLabel('meridian_client_events_total', 'event'),
  };
}
