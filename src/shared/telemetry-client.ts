import { PAGE_VIEW_TIMING } from './page-view-token';
import { MAX_EVENT_TEXT, MAX_EVENTS_PER_BEACON, TELEMETRY_ENDPOINT, type TelemetryBatch, type TelemetryEvent } from './telemetry-events';

/**
 * The browser's side of POST /api/telemetry: events are queued and sent in
 * batches of at most MAX_EVENTS_PER_BEACON with navigator.sendBeacon, when the
 * queue fills, a few seconds after the first event, and when the page is
 * hidden or left.
 * Every beacon carries the page-view token the server gave this page (src/shared/page-view-token.ts):
 * a page without one (served by a build that issues none, or not by our server) reports nothing.
 * Reporting never disturbs the visitor: every failure is swallowed.
 * A fetch that got no answer (status 0) is reported a task later, and not at all if the page
 * is being left by then: as a visitor leaves, the browser rejects the page's fetches while
 * it dispatches `pagehide` (before listeners registered after the page's first ones), so a
 * visitor leaving mid-poll would otherwise count as a failure of the build (and a canary,
 * whose pods answer slower while they warm up, as a failing one).
 */
/** More than this waiting means the endpoint is unreachable; drop rather than grow. */
const MAX_QUEUED = 100;
const FLUSH_DELAY_MS = 5000;

const queue: TelemetryEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
/** From `pagehide` until the page is shown again (from the back-forward cache). */
let leaving = false;

/** The token the server named in this page's Server-Timing header, as long as it is not renewed. */
function issuedToken(): string | undefined {
  const [navigation] = performance.getEntriesByType('navigation') as PerformanceNavigationTiming[];
  return navigation?.serverTiming?.find((entry) => entry.name === PAGE_VIEW_TIMING)?.description || undefined;
}

let token = typeof window === 'undefined' ? undefined : issuedToken();

/** This page view's token, for the build poll to have it renewed. */
export function pageViewToken(): string | undefined {
  return token;
}

/** A renewed token (src/freshness/use-build-poller.ts): the same page view with a longer life. */
export function renewPageViewToken(renewed: string): void {
  token = renewed;
}

function bounded(event: TelemetryEvent): TelemetryEvent {
  const copy: Record<string, unknown> = { ...event };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = value.slice(0, MAX_EVENT_TEXT);
  }
  return copy as TelemetryEvent;
}

function send(events: TelemetryEvent[]): void {
  if (token === undefined) return;
  const body = JSON.stringify({ token, events } satisfies TelemetryBatch);
  try {
    if (navigator.sendBeacon?.(TELEMETRY_ENDPOINT, new Blob([body], { type: 'application/json' }))) return;
    void fetch(TELEMETRY_ENDPOINT, {
      method: 'POST',
      body,
      keepalive: true,
      headers: { 'Content-Type': 'application/json' },
    }).catch(() => {});
  } catch {
    // Reporting is best effort.
  }
}

export function flushTelemetry(): void {
  clearTimeout(timer);
  timer = undefined;
  while (queue.length > 0) send(queue.splice(0, MAX_EVENTS_PER_BEACON));
}

// From the start, so a page left before its first report knows it is being left.
if (typeof window !== 'undefined') {
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushTelemetry();
  });
  window.addEventListener('pagehide', () => {
    leaving = true;
    flushTelemetry();
  });
  window.addEventListener('pageshow', () => (leaving = false));
}

function enqueue(event: TelemetryEvent): void {
  if (queue.length >= MAX_QUEUED) return;
  queue.push(bounded(event));
  if (queue.length >= MAX_EVENTS_PER_BEACON) flushTelemetry();
  else timer ??= setTimeout(flushTelemetry, FLUSH_DELAY_MS);
}

export function reportTelemetry(event: TelemetryEvent): void {
  if (typeof window === 'undefined') return;
  if ('status' in event && event.status === 0)
    setTimeout(() => {
      if (!leaving) enqueue(event);
    }, 0);
  else enqueue(event);
}
