import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from 'pino';
import type { Metrics, TelemetryRejection } from '@/server/observability/metrics';
import type { ProxyTrust } from '@/server/serving/edge/client-address';
import { OWNER_LEAVING_STATUS, RELAY_HEADER, type BeaconRelay } from './beacon-relay';
import { hasBody, mediaTypeOf, readBody } from './beacon-body';
import type { PageViewTokens } from './page-view-tokens';
import type { ReplayGuard } from './replay-guard';
import { recordOnce } from './record-reports';
import { originRefusal } from './same-origin';
import { telemetryBatchSchema } from './schema';

/** A beacon holds at most 20 small events; a few hundred bytes in practice. */
const MAX_BODY_BYTES = 8192;
/** A client that never finishes its body must not hold the handler. */
const READ_TIMEOUT_MS = 10_000;
/** The limiter's window is a minute. */
const RETRY_AFTER_SECONDS = '60';
/**
 * Our pages send a Blob typed application/json. A text/plain POST is what another site's page
 * can send without a CORS preflight, so it is refused; with this type a cross-site page's
 * browser asks first (OPTIONS), gets no Access-Control-Allow-Origin, and sends nothing.
 */
const CONTENT_TYPE = 'application/json';
/** Keeps the warning about an unexpected failure to one short line. */
const MAX_LOGGED_ERROR = 500;

/** What the endpoint holds for the process's lifetime (telemetry-services.ts). */
export interface TelemetryServices {
  limiter: { take(address: string): boolean };
  tokens: PageViewTokens;
  replays: ReplayGuard;
  /** Beacons of other pods' tokens go to them (beacon-relay.ts). */
  relay: BeaconRelay;
  /** This pod's address (POD_IP), the owner its tokens name; empty outside Kubernetes. */
  podIp: string;
  /** SITE_URL's origin, which a page's Origin may name too; undefined when unset. */
  siteOrigin: string | undefined;
  /** Only tests shorten it. */
  readTimeoutMs?: number;
}

export interface TelemetryDeps extends TelemetryServices {
  metrics: Metrics;
  /** This server's build: a report is `self` when its token names it, `other` whatever else it names. */
  buildId: string;
  logger: Logger;
  clientAddress: string;
  /** Which proxies may name the original host and scheme, for the same-origin check. */
  trust: ProxyTrust;
  /** Shutting down: what this pod counts from now on may never be scraped (shutdown.ts). */
  draining: boolean;
}

/**
 * Every refusal: a tiny JSON body naming the reason, never cached, and counted. Browsers ignore
 * a beacon's answer, so its status only tells a person (or a script) what was wrong.
 */
function refuse(
  res: ServerResponse,
  metrics: Metrics,
  status: number,
  reason: TelemetryRejection,
  options: { close: boolean; headers?: Record<string, string> },
): void {
  metrics.telemetryRejected.inc({ reason });
  answerRefusal(res, status, reason, options);
}

function answerRefusal(
  res: ServerResponse,
  status: number,
  reason: TelemetryRejection,
  options: { close: boolean; headers?: Record<string, string> },
): void {
  if (res.headersSent) return;
  res.statusCode = status;
  for (const [name, value] of Object.entries(options.headers ?? {})) res.setHeader(name, value);
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  if (options.close) res.setHeader('Connection', 'close');
  res.end(JSON.stringify({ error: reason }));
}

async function handle(req: IncomingMessage, res: ServerResponse, deps: TelemetryDeps): Promise<void> {
  const { metrics } = deps;
  const body = hasBody(req);
  // A beacon another pod relays was checked there for its origin and rate; its mark, once the
  // body is in, says whether it was (a forged mark is refused).
  const relayMark = req.headers[RELAY_HEADER];
  if (relayMark === undefined) {
    // Every request counts against the limit, valid or not, so garbage can't be sent for free.
    if (!deps.limiter.take(deps.clientAddress)) {
      return refuse(res, metrics, 429, 'rate_limited', { close: body, headers: { 'Retry-After': RETRY_AFTER_SECONDS } });
    }
  }
  if (req.method !== 'POST') {
    return refuse(res, metrics, 405, 'method_not_allowed', { close: body, headers: { Allow: 'POST' } });
  }
  const foreign = relayMark === undefined ? originRefusal(req, deps.trust, deps.siteOrigin) : null;
  if (foreign) return refuse(res, metrics, 403, foreign, { close: body });
  if (mediaTypeOf(req) !== CONTENT_TYPE) return refuse(res, metrics, 415, 'unsupported_media_type', { close: body });
  if (Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES) {
    return refuse(res, metrics, 413, 'payload_too_large', { close: true });
  }

  const read = await readBody(req, deps.readTimeoutMs ?? READ_TIMEOUT_MS, MAX_BODY_BYTES);
  if (read.kind === 'too_large') return refuse(res, metrics, 413, 'payload_too_large', { close: true });
  if (read.kind === 'timeout') return refuse(res, metrics, 408, 'request_timeout', { close: true });
  if (read.kind === 'aborted') return refuse(res, metrics, 400, 'aborted', { close: true });
  const relayed = relayMark !== undefined && deps.relay.isRelayed(relayMark, read.body);
  if (relayMark !== undefined && !relayed) return refuse(res, metrics, 403, 'bad_relay', { close: false });
  // Relays come straight to this pod's address, past the Service that stopped sending it
  // visitors: counted here in its last moments, a report would leave with the pod unscraped.
  // Answered as gone, the relaying pod counts it instead.
  if (relayed && deps.draining) {
    res.statusCode = OWNER_LEAVING_STATUS;
    res.setHeader('Connection', 'close');
    res.end();
    return;
  }

  let json: unknown;
  try {
    json = JSON.parse(read.body.toString('utf8'));
  } catch {
    return refuse(res, metrics, 400, 'invalid_json', { close: false });
  }
  const batch = telemetryBatchSchema.safeParse(json);
  if (!batch.success) return refuse(res, metrics, 400, 'invalid_batch', { close: false });
  const { token, events } = batch.data;
  if (token === undefined) return refuse(res, metrics, 403, 'no_token', { close: false });
  const check = deps.tokens.verify(token);
  if (!check.ok) return refuse(res, metrics, 403, check.reason, { close: false });

  // The pod that issued the token counts its reports, so that a replay counts nowhere else:
  // it is relayed there, and answered 202 at once (a beacon's answer is read by nobody).
  const { view } = check;
  if (!relayed && view.owner !== '' && view.owner !== deps.podIp) {
    const sent = deps.relay.relayLater(
      view.owner,
      read.body,
      (outcome) => {
        metrics.telemetryRelays.inc({ result: outcome });
        // Its owner gone or leaving, nobody else will count it.
        if (outcome === 'owner_gone' || outcome === 'owner_leaving') recordOnce(events, view, deps);
      },
      // Past the request's own guard (handleTelemetry): a failure here must not reject either.
      (error) => warnOfFailure(deps.logger, error),
    );
    if (!sent) metrics.telemetryRelays.inc({ result: 'shed' });
    res.statusCode = 202;
    res.setHeader('Cache-Control', 'no-store');
    res.end();
    return;
  }
  // The build a report counts for is the token's, which the page cannot choose.
  // A beacon of nothing but replays (each already counted as one) is refused as a whole.
  if (recordOnce(events, view, deps) === 0) return answerRefusal(res, 409, 'replay', { close: false });
  res.statusCode = 204;
  res.setHeader('Cache-Control', 'no-store');
  res.end();
}

/**
 * POST /api/telemetry: beacons from browsers, turned into metrics and log
 * lines. Browser input must never cause a 5xx nor reject out of here: anything
 * unexpected is answered 400 and logged at warn.
 */
export async function handleTelemetry(req: IncomingMessage, res: ServerResponse, deps: TelemetryDeps): Promise<void> {
  try {
    await handle(req, res, deps);
  } catch (error) {
    try {
      warnOfFailure(deps.logger, error);
      refuse(res, deps.metrics, 400, 'bad_request', { close: true });
    } catch {
      // Nothing left to do: the socket or the logger is broken, and this function must not throw.
    }
  }
}

/** One short warning line of an unexpected failure. */
function warnOfFailure(logger: Logger, error: unknown): void {
  const description = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
  logger.warn({ error: description.slice(0, MAX_LOGGED_ERROR) }, 'Telemetry request failed');
}
