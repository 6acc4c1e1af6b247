import { CURRENT_BUILD_ID } from './current-build';
import { MAX_EVENT_TEXT, MAX_EVENTS_PER_BEACON, TELEMETRY_ENDPOINT, type TelemetryBatch, type TelemetryEvent } from './telemetry-events';

/**
 * The browser's side of POST /api/telemetry: events are queued and sent in
 * batches of at most MAX_EVENTS_PER_BEACON with navigator.sendBeacon, when the
 * queue fills, a few seconds after the first event, and when the page is
 * hidden or left.
 * Reporting never disturbs the visitor: every failure is swallowed.
 */
/** More than this waiting means the endpoint is unreachable; drop rather than grow. */
const MAX_QUEUED = 100;
const FLUSH_DELAY_MS = 5000;

const queue: TelemetryEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

function bounded(event: TelemetryEvent): TelemetryEvent {
  const copy: Record<string, unknown> = { ...event };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = value.slice(0, MAX_EVENT_TEXT);
  }
  return copy as TelemetryEvent;
}

function send(events: TelemetryEvent[]): void {
  const body = JSON.stringify({ build: CURRENT_BUILD_ID, events } satisfies TelemetryBatch);
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

function listenForPageExit(): void {
  if (listening) return;
  listening = true;
  document.addEventListener('visibilitychange', () => {
    if (document.visibilityState === 'hidden') flushTelemetry();
  });
  window.addEventListener('pagehide', flushTelemetry);
}

export function reportTelemetry(event: TelemetryEvent): void {
  if (typeof window === 'undefined' || queue.length >= MAX_QUEUED) return;
  listenForPageExit();
  queue.push(bounded(event));
  if (queue.length >= MAX_EVENTS_PER_BEACON) flushTelemetry();
  else timer ??= setTimeout(flushTelemetry, FLUSH_DELAY_MS);
}
