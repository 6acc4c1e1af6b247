import type { Metrics } from './metrics';
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

/** A request answered 405 before Node handed it to the listener: never in flight, so only observed. */
export function countUnparsedRefusal(metrics: Metrics, method: 'CONNECT' | 'other'): void {
  metrics.requestDuration.observe({ method, route: 'other', status_code: '405' }, 0);
}
