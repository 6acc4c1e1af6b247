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

/** @param {{ buckets: ReturnType<typeof emptyCounts>[] }} traffic */
export function trafficTotals({ buckets }) {
  const totals = emptyCounts();
  for (const bucket of buckets) {
    totals.requests += bucket.requests;
    totals.ok += bucket.ok;
    totals.serverErrors += bucket.serverErrors;
    totals.otherStatuses += bucket.otherStatuses;
    totals.connectionErrors += bucket.connectionErrors;
    for (const [build, count] of Object.entries(bucket.builds)) totals.builds[build] = (totals.builds[build] ?? 0) + count;
  }
  return totals;
}
