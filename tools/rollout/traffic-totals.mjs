// The load generator's per-second counts, added up over the whole run.

/**
 * @param {{ buckets: { requests: number, ok: number, serverErrors: number, otherStatuses: number, connectionErrors: number, builds: Record<string, number> }[] }} traffic
 */
export function trafficTotals({ buckets }) {
  const totals = {
    requests: 0,
    ok: 0,
    serverErrors: 0,
    otherStatuses: 0,
    connectionErrors: 0,
    builds: /** @type {Record<string, number>} */ ({}),
  };
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
