import type { IncomingMessage, ServerResponse } from 'node:http';
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

/** Counts the body bytes a response sends, for the access log. */
export function countSentBytes(res: ServerResponse): () => number {
  let bytes = 0;
  const add = (chunk: unknown) => {
    if (typeof chunk === 'string') bytes += Buffer.byteLength(chunk);
    else if (chunk instanceof Uint8Array) bytes += chunk.byteLength;
  };
  const write = res.write.bind(res);
  const end = res.end.bind(res);
  res.write = ((chunk: unknown, ...rest: unknown[]) => {
    add(chunk);
    return (write as (...args: unknown[]) => boolean)(chunk, ...rest);
  }) as ServerResponse['write'];
  res.end = ((chunk?: unknown, ...rest: unknown[]) => {
    if (typeof chunk !== 'function') add(chunk);
    return (end as (...args: unknown[]) => ServerResponse)(chunk, ...rest);
  }) as ServerResponse['end'];
  return () => bytes;
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

export function writeAccessLine(logger: Logger, pathname: string, line: AccessLine): void {
  if (QUIET_PATHS.has(pathname)) logger.debug(line, 'request');
  else logger.info(line, 'request');
}

/** The access line of a request refused before Node parsed it (see src/server/serving/edge/unparsed-requests.ts). */
export function logUnparsedRefusal(logger: Logger, method: 'CONNECT' | 'other', remoteAddress: string): void {
  logger.info({ method, route: 'other', status: 405, remote_address: remoteAddress }, 'request');
}

export function logRequestFailure(logger: Logger, error: unknown, requestId: string, pathname: string): void {
  logger.error({ err: error, request_id: requestId, path: loggedPath(pathname) }, 'Request failed');
}
