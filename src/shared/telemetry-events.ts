/**
 * What browsers report to the server, declared once: the endpoint, the event
 * names, each event's fields and the bounds of a beacon. The browser sends
 * `TelemetryEvent`s (src/shared/telemetry-client.ts); the server checks the
 * same shape with zod (src/server/telemetry/schema.ts), and a unit test holds
 * the schema to this type. No runtime code here: it reaches the browser bundle.
 */
export const TELEMETRY_ENDPOINT = '/api/telemetry';

export const TELEMETRY_EVENT_TYPES = [
  'locale_load_failed',
  'manifest_fetch_failed',
  'payload_fetch_failed',
  'build_update_detected',
  'chunk_reload',
  'chunk_reload_blocked',
  'web_vital',
] as const;

export type TelemetryEventType = (typeof TELEMETRY_EVENT_TYPES)[number];

export const WEB_VITAL_NAMES = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;

/** Which build file a failed `manifest_fetch_failed` fetch was for. */
export const BUILD_FILE_KINDS = ['manifest', 'latest'] as const;

export type TelemetryEvent =
  | { type: 'locale_load_failed'; locale: string; namespace: string; cause?: string }
  | { type: 'manifest_fetch_failed'; kind: (typeof BUILD_FILE_KINDS)[number]; buildId?: string; status?: number }
  | { type: 'payload_fetch_failed'; buildId?: string; status?: number; path?: string }
  | { type: 'build_update_detected'; from?: string; to?: string }
  | { type: 'chunk_reload'; reason?: string }
  | { type: 'chunk_reload_blocked'; reason?: string }
  | {
      type: 'web_vital';
      name: (typeof WEB_VITAL_NAMES)[number];
      value: number;
      locale: string;
      route: string;
      id?: string;
    };

/**
 * The body of one beacon: the events, and the page-view token the server gave the page that
 * sent them (src/shared/page-view-token.ts), which names the page's build.
 */
export interface TelemetryBatch {
  token: string;
  events: TelemetryEvent[];
}

/**
 * Whose page a report came from, seen from the server that received it: its own
 * build's, or another live build's (or an old tab's), as the report's token says.
 * Two values, so a metric's series stay bounded whatever is sent.
 */
export const PAGE_BUILDS = ['self', 'other'] as const;

export type PageBuild = (typeof PAGE_BUILDS)[number];

/** Events in one beacon, at most. */
export const MAX_EVENTS_PER_BEACON = 20;
/** The longest string field the server accepts; the browser cuts its strings to it. */
export const MAX_EVENT_TEXT = 200;
/** A failure's cause may be longer than other strings. */
export const MAX_EVENT_CAUSE = 500;
