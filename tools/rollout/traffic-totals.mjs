// The load generator's per-second counts, added up over the whole run.

/** Counts of answers, of one second (the load generator's buckets) or of the whole run. */
export function emptyCounts() {
  return {
    requests: 0,
    ok: 0,
    serverErrors: 0,
    otherStatuses: 0,
    connectionErrors: 0,
    /** Answers by the build that gave them. */
    builds: /** @type {Record<string, number>} */ ({}),
  };
}

/**
 * Adds `counts` into `into`.
 * @param {ReturnType<typeof emptyCounts>} into @param {ReturnType<typeof emptyCounts>} counts
 */
export function addCounts(into, counts) {
  into.requests += counts.requests;
  into.ok += counts.ok;
  into.serverErrors += counts.serverErrors;
  into.otherStatuses += counts.otherStatuses;
  into.connectionErrors += counts.connectionErrors;
  for (const [build, count] of Object.entries(counts.builds)) into.builds[build] = (into.builds[build] ?? 0) + count;
}

/** @param {{ buckets: ReturnType<typeof emptyCounts>[] }} traffic */
export function trafficTotals({ buckets }) {
  const totals = emptyCounts();
  for (const bucket of buckets) addCounts(totals, bucket);
  return totals;
}
