/**
 * The browser's side of POST /api/telemetry: events are queued and sent in
 * batches of at most 20 with navigator.sendBeacon, when the queue fills, a few
 * seconds after the first event, and when the page is hidden or left.
 * Reporting never disturbs the visitor: every failure is swallowed.
 */
export type TelemetryEvent =
  | { type: 'locale_load_failed'; locale: string; namespace: string; cause?: string }
  | { type: 'manifest_fetch_failed'; kind: 'manifest' | 'latest'; buildId?: string; status?: number }
  | { type: 'payload_fetch_failed'; buildId?: string; status?: number; path?: string }
  | { type: 'build_update_detected'; from?: string; to?: string }
  | { type: 'chunk_reload'; reason?: string }
  | { type: 'chunk_reload_blocked'; reason?: string }
  | { type: 'web_vital'; name: 'LCP' | 'INP' | 'CLS' | 'FCP' | 'TTFB'; value: number; locale: string; route: string; id?: string };

export const TELEMETRY_ENDPOINT = '/api/telemetry';
const MAX_BATCH = 20;
/** More than this waiting means the endpoint is unreachable; drop rather than grow. */
const MAX_QUEUED = 100;
const FLUSH_DELAY_MS = 5000;
const MAX_STRING = 200;

const queue: TelemetryEvent[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
let listening = false;

function bounded(event: TelemetryEvent): TelemetryEvent {
  const copy: Record<string, unknown> = { ...event };
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === 'string') copy[key] = value.slice(0, MAX_STRING);
  }
  return copy as TelemetryEvent;
}

function send(events: TelemetryEvent[]): void {
  const body = JSON.stringify({ events });
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
  while (queue.length > 0) send(queue.splice(0, MAX_BATCH));
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
  if (queue.length >= MAX_BATCH) flushTelemetry();
  else timer ??= setTimeout(flushTelemetry, FLUSH_DELAY_MS);
}
