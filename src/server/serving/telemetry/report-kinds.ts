import { BUILD_FILE_KINDS, TELEMETRY_EVENT_TYPES, WEB_VITAL_NAMES } from '@/shared/telemetry-events';
import type { ReceivedTelemetryEvent } from './schema';

/**
 * What a page view may report once each: an event type, split where one type stands for
 * several things a page can see once each (a failed manifest and a failed poll; each web
 * vital). `failed` is the page view's first failure of any kind, counted once too.
 */
const REPORT_KINDS: readonly string[] = [
  ...TELEMETRY_EVENT_TYPES.flatMap((type) => {
    if (type === 'manifest_fetch_failed') return BUILD_FILE_KINDS.map((kind) => `${type}:${kind}`);
    if (type === 'web_vital') return WEB_VITAL_NAMES.map((name) => `${type}:${name}`);
    return [type];
  }),
  'failed',
];

/** The kind's bit in the replay guard (replay-guard.ts). */
const bitOf = (kind: string) => REPORT_KINDS.indexOf(kind);

export const FAILED_PAGE_VIEW = bitOf('failed');

export function reportKindOf(event: ReceivedTelemetryEvent): number {
  if (event.type === 'manifest_fetch_failed') return bitOf(`manifest_fetch_failed:${event.kind}`);
  if (event.type === 'web_vital') return bitOf(`web_vital:${event.name}`);
  return bitOf(event.type);
}

/**
 * The failures that say the page's build is broken for its visitor, as the canary's analysis
 * counts them: its chunks, its route manifest or payloads, its locale files. A failed poll of
 * builds/latest.json is left out: it says more of the network than of the build.
 */
export function isPageFailure(event: ReceivedTelemetryEvent): boolean {
  switch (event.type) {
    case 'chunk_reload':
    case 'chunk_reload_blocked':
    case 'payload_fetch_failed':
    case 'locale_load_failed':
      return true;
    case 'manifest_fetch_failed':
      return event.kind === 'manifest';
    default:
      return false;
  }
}
