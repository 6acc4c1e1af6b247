import { z } from 'zod';
import { isNamespace } from '@/i18n/namespaces';
import { isLocale } from '@/shared/locales';
import { MAX_PAGE_VIEW_TOKEN } from '@/shared/page-view-token';
import { BUILD_FILE_KINDS, MAX_EVENT_CAUSE, MAX_EVENT_TEXT, MAX_EVENTS_PER_BEACON, WEB_VITAL_NAMES } from '@/shared/telemetry-events';
import { reportedRouteLabel } from '@/server/observability/route-label';

/** An hour in milliseconds: no real LCP or INP is longer; anything above is garbage. */
const MAX_VITAL_VALUE = 3_600_000;

/** Every string is bounded, so no field can blow up a log line or the memory of a batch. */
const text = (max = MAX_EVENT_TEXT) => z.string().max(max);
const httpStatus = z.number().int().min(0).max(599);

/** Metric labels take browser input only through these, so their values stay a fixed set. */
const localeLabel = text().transform((value) => (isLocale(value) ? value : 'other'));
const namespaceLabel = text().transform((value) => (isNamespace(value) ? value : 'other'));
const pageRoute = text().transform((value) => {
  // Only the two page templates are kept.
  const label = reportedRouteLabel(value);
  return label === '/' || label === '/[locale]' ? label : 'other';
});

/**
 * The server's check of src/shared/telemetry-events.ts's `TelemetryEvent`.
 * z.object strips unknown keys; the discriminated union rejects unknown types.
 */
export const telemetryEventSchema = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('locale_load_failed'),
    locale: localeLabel,
    namespace: namespaceLabel,
    cause: text(MAX_EVENT_CAUSE).optional(),
  }),
  z.object({
    type: z.literal('manifest_fetch_failed'),
    kind: z.enum(BUILD_FILE_KINDS),
    buildId: text().optional(),
    status: httpStatus.optional(),
  }),
  z.object({
    type: z.literal('payload_fetch_failed'),
    buildId: text().optional(),
    status: httpStatus.optional(),
    path: text().optional(),
  }),
  z.object({
    type: z.literal('build_update_detected'),
    from: text().optional(),
    to: text().optional(),
  }),
  z.object({ type: z.literal('chunk_reload'), reason: text().optional() }),
  z.object({ type: z.literal('chunk_reload_blocked'), reason: text().optional() }),
  z.object({
    type: z.literal('web_vital'),
    name: z.enum(WEB_VITAL_NAMES),
    // zod 4 numbers are finite: Infinity and NaN never pass.
    value: z.number().min(0).max(MAX_VITAL_VALUE),
    locale: localeLabel,
    route: pageRoute,
    id: text().optional(),
  }),
]);

/**
 * The body of one beacon. The page-view token is checked apart (page-view-tokens.ts), so a
 * beacon without one is told so rather than called malformed; a `build` sent by an older page
 * is dropped with any other unknown key: the build a report counts for is the token's.
 */
export const telemetryBatchSchema = z.object({
  token: z.string().max(MAX_PAGE_VIEW_TOKEN).optional(),
  events: z.array(telemetryEventSchema).min(1).max(MAX_EVENTS_PER_BEACON),
});

export type TelemetryBatchInput = z.input<typeof telemetryBatchSchema>;
export type TelemetryBatch = z.output<typeof telemetryBatchSchema>;
/** An event as checked: its label fields reduced to their fixed sets. */
export type ReceivedTelemetryEvent = TelemetryBatch['events'][number];
