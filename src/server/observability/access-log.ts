import type { IncomingMessage } from 'node:http';
import pino, { type Logger } from 'pino';
import { localeOfPath } from '@/shared/locales';
import { HEALTH_PATH, READINESS_PATH } from '@/shared/site-paths';

const MAX_LOGGED_PATH = 512;
const MAX_LOGGED_USER_AGENT = 256;
/** Probes are frequent and uninteresting: debug level only. */
const QUIET_PATHS = new Set([HEALTH_PATH, READINESS_PATH]);

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
  trace_id?: string | undefined;
  span_id?: string | undefined;
}

/** Pages have a language; files and APIs do not. */
export function localeOfRoute(route: string, pathname: string): string | undefined {
  return route === 'public_file' || route.startsWith('/_next') || route.startsWith('/api') ? undefined : localeOfPath(pathname);
}

interface AccessLineWriter {
  /** The line's level by path (probes at debug), or null when the logger's level drops it. */
  levelOf(pathname: string): number | null;
  /** The line as text, `time` being an ISO timestamp already quoted for JSON. */
  format(level: number, line: AccessLine, time: string): string;
  stream: { write(lines: string): void };
}

type PinoInternals = Record<symbol, unknown>;

/**
 * Taken before Next is loaded: Next wraps `Date` to watch what its renders
 * read, a cost every access line would otherwise pay.
 */
const UnwatchedDate = Date;

/**
 * Writes access lines exactly as `logger.info(line, 'request')` would (same
 * fields, same order: level, time, the logger's bindings, the line, msg), but
 * as one JSON.stringify of the line instead of pino's walk over each field,
 * which cost a fifth of a prerendered page's answer. Access lines hold no
 * secret for pino to redact, and no request context for a mixin to add.
 * tests/unit/server/observability/access-log.test.ts keeps the two identical.
 */
function accessLineWriter(logger: Logger): AccessLineWriter {
  const internals = logger as unknown as PinoInternals;
  const stream = internals[pino.symbols.streamSym] as AccessLineWriter['stream'];
  const bindings = internals[pino.symbols.chindingsSym] as string;
  const levels = logger.levels.values;
  return {
    levelOf(pathname) {
      const level = QUIET_PATHS.has(pathname) ? 'debug' : 'info';
      return logger.isLevelEnabled(level) ? (levels[level] as number) : null;
    },
    format(level, line, time) {
      return `{"level":${level},"time":${time}${bindings},${JSON.stringify(line).slice(1, -1)},"msg":"request"}\n`;
    },
    stream,
  };
}

const writers = new WeakMap<Logger, AccessLineWriter>();
const pendingLines: { writer: AccessLineWriter; level: number; line: AccessLine }[] = [];

/** Writes every access line gathered so far: one write per logger, one timestamp, as they go out together. */
export function flushAccessLines(): void {
  const time = `"${new UnwatchedDate().toISOString()}"`;
  let writer: AccessLineWriter | undefined;
  let lines = '';
  for (const entry of pendingLines) {
    if (entry.writer !== writer) {
      if (writer) writer.stream.write(lines);
      writer = entry.writer;
      lines = '';
    }
    lines += entry.writer.format(entry.level, entry.line, time);
  }
  if (writer) writer.stream.write(lines);
  pendingLines.length = 0;
}

/**
 * Logs a finished request. The line's fields are fixed now; it is written
 * with the others of this turn of the event loop, once the turn's responses
 * are out: the same work done in one tight loop took measurably less CPU per
 * request than one line at each response's close (docs/performance.md).
 */
export function writeAccessLine(logger: Logger, pathname: string, line: AccessLine): void {
  let writer = writers.get(logger);
  if (!writer) writers.set(logger, (writer = accessLineWriter(logger)));
  const level = writer.levelOf(pathname);
  if (level === null) return;
  if (pendingLines.push({ writer, level, line }) === 1) setImmediate(flushAccessLines);
}

/** The access line of a request answered before Node parsed it (see src/server/serving/edge/unparsed-requests.ts). */
export function logUnparsedRequest(
  logger: Logger,
  line: { method: string; status: number; reason: string; path: string | undefined; remote_address: string },
): void {
  logger.info({ ...line, path: line.path === undefined ? undefined : loggedPath(line.path), route: 'unparsed' }, 'request');
}

export function logRequestFailure(logger: Logger, error: unknown, requestId: string, pathname: string): void {
  logger.error({ err: error, request_id: requestId, path: loggedPath(pathname) }, 'Request failed');
}
