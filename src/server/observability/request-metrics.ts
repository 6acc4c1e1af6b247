import type { Metrics, UnparsedReason } from './metrics';
import { statusLabel } from './route-label';

/** A request on the public port has begun. */
export function countRequestStart(metrics: Metrics): void {
  metrics.activeRequests.inc();
}

/** A request has ended: no longer in flight, and its duration observed by route template. */
export function countRequestEnd(metrics: Metrics, method: string, route: string, status: number, seconds: number): void {
  metrics.activeRequests.dec();
  metrics.requestDuration.observe({ method, route, status_code: statusLabel(status) }, seconds);
}

/**
 * A request answered before Node could hand it to the listener: counted by reason, and
 * in the request histogram under route `unparsed` (never in flight, and not timed: 0 s),
 * so the answers by status show it and latency by route can leave it out.
 */
export function countUnparsedRequest(metrics: Metrics, method: string, reason: UnparsedReason, status: number): void {
  metrics.unparsedRequests.inc({ reason });
  metrics.requestDuration.observe({ method, route: 'unparsed', status_code: statusLabel(status) }, 0);
}
