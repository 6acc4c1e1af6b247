import type { IncomingMessage } from 'node:http';
import type { Logger } from 'pino';
import { localeOfPath } from '@/shared/locales';

const MAX_LOGGED_PATH = 512;
const MAX_LOGGED_USER_AGENT = 256;
/** Probes are frequent and uninteresting: debug level only. */
const QUIET_PATHS = new Set(['/healthz', '/readyz']);

/** The path as logged and traced: bounded, so no request can blow up a log line. */
export function loggedPath(pathname: string): string {
  return pathname.slice(0, MAX_LOGGED_PATH);
}

export function loggedUserAgent(req: IncomingMessage): string {
  return String(req.headers['user-agent'] ?? '').slice(0, MAX_LOGGED_USER_AGENT);
}

/** One access line: every field of it, so a line cannot go out incomplete. */
export interface AccessLine {
  request_id: string;
  method: string;
  path: string;
  route: string;
  status: number;
  duration_ms: number;
  bytes: number;
  locale: string | undefined;
  user_agent: string;
  remote_address: string;
  /** True when the visitor left before the answer was sent; absent otherwise. */
  aborted: true | undefined;
  trace_id?: string;
  span_id?: string;
}

/** Pages have a language; files and APIs do not. */
export function localeOfRoute(route: string, pathname: string): string | undefined {
  return route === 'public_file' || route.startsWith('/_next') || route.startsWith('/api') ? undefined : localeOfPath(pathname);
}

const pendingLines: { logger: Logger; pathname: string; line: AccessLine }[] = [];

/** Hands every access line gathered so far to its logger. */
export function flushAccessLines(): void {
  for (const { logger, pathname, line } of pendingLines) {
    if (QUIET_PATHS.has(pathname)) logger.debug(line, 'request');
    else logger.info(line, 'request');
  }
  pendingLines.length = 0;
}

/**
 * Logs a finished request. The line's fields are fixed now; it is serialized
 * with the others of this turn of the event loop, once the turn's responses
 * are out: the same work done in one tight loop took measurably less CPU per
 * request than one line at each response's close (docs/performance.md).
 */
export function writeAccessLine(logger: Logger, pathname: string, line: AccessLine): void {
  if (pendingLines.push({ logger, pathname, line }) === 1) setImmediate(flushAccessLines);
}

/** The access line of a request refused before Node parsed it (see src/server/serving/edge/unparsed-requests.ts). */
export function logUnparsedRefusal(logger: Logger, method: 'CONNECT' | 'other', remoteAddress: string): void {
  logger.info({ method, route: 'other', status: 405, remote_address: remoteAddress }, 'request');
}

export function logRequestFailure(logger: Logger, error: unknown, requestId: string, pathname: string): void {
  logger.error({ err: error, request_id: requestId, path: loggedPath(pathname) }, 'Request failed');
}
