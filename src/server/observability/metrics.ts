import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import { NAMESPACES } from '@/i18n/namespaces';
import { LOCALES } from '@/shared/locales';
import { PAGE_BUILDS, TELEMETRY_EVENT_TYPES } from '@/shared/telemetry-events';
import type { BuildInfo } from '../build-info';

export const FETCH_FAILURE_KINDS = ['manifest', 'payload', 'latest'] as const;

export type FetchFailureKind = (typeof FETCH_FAILURE_KINDS)[number];

/** Why a request was answered before Node's parser could hand it to the pipeline (serving/edge/unparsed-requests.ts). */
export const UNPARSED_REASONS = [
  'connect',
  'unknown_method',
  'uri_too_long',
  'header_too_large',
  'timeout',
  'bad_framing',
  'chunk_extensions_too_large',
  'incomplete',
  'malformed',
] as const;

export type UnparsedReason = (typeof UNPARSED_REASONS)[number];

/** What a pod asks another build's pods for during a canary release (serving/canary/peer-files.ts), and how it went. */
export const PEER_FILE_KINDS = ['asset', 'manifest'] as const;
/** `misrouted` counts each miss from a pod of another build than the file's, asked again; the others, each forward's end. */
export const PEER_FORWARD_RESULTS = ['served', 'missing', 'failed', 'busy', 'misrouted'] as const;

/** Why a beacon (or one event of it: `replay`) was refused at /api/telemetry (serving/telemetry/). */
export const TELEMETRY_REJECTIONS = [
  'rate_limited',
  'method_not_allowed',
  'cross_site',
  'cross_origin',
  'no_origin',
  'unsupported_media_type',
  'payload_too_large',
  'request_timeout',
  'aborted',
  'invalid_json',
  'invalid_batch',
  'no_token',
  'bad_token',
  'expired_token',
  'replay',
  'bad_relay',
  'bad_request',
] as const;

/** How a beacon of another pod's page-view token went to that pod (serving/telemetry/beacon-relay.ts). */
export const TELEMETRY_RELAY_RESULTS = ['relayed', 'owner_gone', 'owner_leaving', 'owner_busy', 'shed'] as const;

export type TelemetryRejection = (typeof TELEMETRY_REJECTIONS)[number];

export type PeerFileKind = (typeof PEER_FILE_KINDS)[number];
export type PeerForwardResult = (typeof PEER_FORWARD_RESULTS)[number];

/** Why a render was refused (src/server/rendering/renderer.ts): every slot and the queue taken, or no renderer up (starting, restarting). */
export const SHED_REASONS = ['queue_full', 'renderer_down'] as const;

export type ShedReason = (typeof SHED_REASONS)[number];

/** From 5 ms to 10 s: a prerendered page answers in the first buckets, a cold render in the last. */
const REQUEST_BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Core Web Vitals thresholds sit at 2.5 s (LCP) and 200 ms (INP). */
const LCP_BUCKETS = [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10];
const INP_BUCKETS = [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2];
const CLS_BUCKETS = [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1];

/**
 * Every metric the server exports, on a registry of its own (never the global
 * one). Label values come only from the fixed sets in this folder.
 */
export function createMetrics(build: BuildInfo) {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });

  const metrics = {
    registry,
    requestDuration: new Histogram({
      name: 'http_server_request_duration_seconds',
      help: 'Duration of HTTP requests on the public port, by route template.',
      labelNames: ['method', 'route', 'status_code'] as const,
      buckets: REQUEST_BUCKETS,
      registers: [registry],
    }),
    unparsedRequests: new Counter({
      name: 'http_server_unparsed_requests_total',
      help: 'Requests answered before they could be parsed (a 4xx, then the connection closed), by reason.',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    droppedConnections: new Counter({
      name: 'http_server_dropped_connections_total',
      help: 'Connections to the public port closed on arrival because MAX_CONNECTIONS were open.',
      registers: [registry],
    }),
    activeRequests: new Gauge({
      name: 'http_server_active_requests',
      help: 'HTTP requests on the public port being served right now.',
      registers: [registry],
    }),
    peerForwards: new Counter({
      name: 'meridian_peer_forwards_total',
      help: "Requests for another live build's assets and manifests sent on to its pods during a canary release, by result.",
      labelNames: ['kind', 'result'] as const,
      registers: [registry],
    }),
    renderShed: new Counter({
      name: 'meridian_render_shed_total',
      help: 'Requests for Next that were answered 503 with Retry-After instead of rendered, by reason (queue_full: every render slot and the queue taken; renderer_down: the renderer starting or restarting).',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    rendersInFlight: new Gauge({
      name: 'meridian_renders_in_flight',
      help: 'Requests being rendered by the renderer process right now (at most RENDER_CONCURRENCY).',
      registers: [registry],
    }),
    rendersQueued: new Gauge({
      name: 'meridian_renders_queued',
      help: 'Requests waiting for a render slot right now (at most RENDER_QUEUE).',
      registers: [registry],
    }),
    rendererUp: new Gauge({
      name: 'meridian_renderer_up',
      help: "1 while the renderer process (Next's request handler) listens, 0 while it starts or restarts.",
      registers: [registry],
    }),
    rendererRestarts: new Counter({
      name: 'meridian_renderer_restarts_total',
      help: 'Times the renderer process died and was started again.',
      registers: [registry],
    }),
    rendererCpuSeconds: new Counter({
      name: 'meridian_renderer_cpu_seconds_total',
      help: 'CPU time (user and system) the renderer process used, over all its restarts.',
      registers: [registry],
    }),
    rendererResidentMemory: new Gauge({
      name: 'meridian_renderer_resident_memory_bytes',
      help: 'Resident memory of the renderer process (0 while it is down); the serving process reports its own as process_resident_memory_bytes.',
      registers: [registry],
    }),
    buildInfo: new Gauge({
      name: 'meridian_build_info',
      help: 'The build this process serves; always 1.',
      labelNames: ['build_id', 'version', 'revision', 'node_version'] as const,
      registers: [registry],
    }),
    localeLoadFailures: new Counter({
      name: 'meridian_locale_load_failures_total',
      help: 'Locale message files that failed to load, on the server or in browsers (page_build: self for the server).',
      labelNames: ['locale', 'namespace', 'source', 'page_build'] as const,
      registers: [registry],
    }),
    manifestFetchFailures: new Counter({
      name: 'meridian_manifest_fetch_failures_total',
      help: 'Build manifest, page payload and latest-build fetches that failed in browsers, by the page build.',
      labelNames: ['kind', 'page_build'] as const,
      registers: [registry],
    }),
    clientEvents: new Counter({
      name: 'meridian_client_events_total',
      help: "Events reported by browsers through /api/telemetry and counted (each kind once per page view), by the page view token's build (self: this server's build).",
      labelNames: ['event', 'page_build'] as const,
      registers: [registry],
    }),
    pageLoads: new Counter({
      name: 'meridian_page_loads_total',
      help: 'Pages this server answered to a browser loading them (a navigation: Sec-Fetch-Dest document, or Upgrade-Insecure-Requests over plain HTTP), whatever the status.',
      registers: [registry],
    }),
    telemetryRejected: new Counter({
      name: 'meridian_telemetry_rejected_total',
      help: 'Beacons refused at /api/telemetry by reason, and events refused in accepted beacons (replay: a page view reporting a kind again).',
      labelNames: ['reason'] as const,
      registers: [registry],
    }),
    telemetryRelays: new Counter({
      name: 'meridian_telemetry_relays_total',
      help: 'Beacons of a page view another pod issued, relayed to that pod to be counted there (owner_gone, or owner_leaving as it shuts down: counted here instead; owner_busy: no answer in time, and shed: too many relays under way, both dropped).',
      labelNames: ['result'] as const,
      registers: [registry],
    }),
    failedPageViews: new Counter({
      name: 'meridian_client_failed_page_views_total',
      help: "Page views whose browser reported a failure of the page's build (a chunk, its manifest or payloads, a locale file), each once, by the token's build.",
      labelNames: ['page_build'] as const,
      registers: [registry],
    }),
    pageViews: new Counter({
      name: 'meridian_client_page_views_total',
      help: 'Page loads reported by browsers (one TTFB report each), by the page build.',
      labelNames: ['page_build'] as const,
      registers: [registry],
    }),
    webVitalLcp: new Histogram({
      name: 'meridian_web_vitals_lcp_seconds',
      help: 'Largest Contentful Paint reported by browsers.',
      labelNames: ['locale', 'page_build'] as const,
      buckets: LCP_BUCKETS,
      registers: [registry],
    }),
    webVitalInp: new Histogram({
      name: 'meridian_web_vitals_inp_seconds',
      help: 'Interaction to Next Paint reported by browsers.',
      labelNames: ['locale', 'page_build'] as const,
      buckets: INP_BUCKETS,
      registers: [registry],
    }),
    webVitalCls: new Histogram({
      name: 'meridian_web_vitals_cls',
      help: 'Cumulative Layout Shift reported by browsers (unitless).',
      labelNames: ['locale', 'page_build'] as const,
      buckets: CLS_BUCKETS,
      registers: [registry],
    }),
  };
  metrics.buildInfo.set({ build_id: build.buildId, version: build.version, revision: build.revision, node_version: process.version }, 1);
  // Every failure and event series exists from the start at 0, so that rate()
  // and increase() see its first occurrence (a series born at 1 shows no increase).
  // The server's own failures are of its own build; browsers' are of theirs.
  for (const [source, pageBuilds] of [
    ['server', ['self']],
    ['client', PAGE_BUILDS],
  ] as const) {
    for (const page_build of pageBuilds) {
      for (const locale of LOCALES) {
        for (const namespace of NAMESPACES) metrics.localeLoadFailures.inc({ locale, namespace, source, page_build }, 0);
      }
    }
  }
  for (const reason of UNPARSED_REASONS) metrics.unparsedRequests.inc({ reason }, 0);
  for (const reason of TELEMETRY_REJECTIONS) metrics.telemetryRejected.inc({ reason }, 0);
  for (const result of TELEMETRY_RELAY_RESULTS) metrics.telemetryRelays.inc({ result }, 0);
  for (const reason of SHED_REASONS) metrics.renderShed.inc({ reason }, 0);
  for (const kind of PEER_FILE_KINDS) {
    for (const result of PEER_FORWARD_RESULTS) metrics.peerForwards.inc({ kind, result }, 0);
  }
  for (const page_build of PAGE_BUILDS) {
    for (const kind of FETCH_FAILURE_KINDS) metrics.manifestFetchFailures.inc({ kind, page_build }, 0);
    for (const event of TELEMETRY_EVENT_TYPES) metrics.clientEvents.inc({ event, page_build }, 0);
    metrics.pageViews.inc({ page_build }, 0);
    metrics.failedPageViews.inc({ page_build }, 0);
    // Web Vitals too: a canary's first LCP reports would otherwise be lost to its analysis.
    for (const locale of LOCALES) {
      for (const histogram of [metrics.webVitalLcp, metrics.webVitalInp, metrics.webVitalCls]) histogram.zero({ locale, page_build });
    }
  }
  return metrics;
}

export type Metrics = ReturnType<typeof createMetrics>;
