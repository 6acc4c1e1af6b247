import { trace } from '@opentelemetry/api';
import pino, { type Logger } from 'pino';
import type { ServerConfig } from '../config';

/** Headers that carry credentials never reach a log line, wherever they appear. */
export const REDACTED_PATHS = [
  'headers.cookie',
  'headers.authorization',
  'headers["set-cookie"]',
  'req.headers.cookie',
  'req.headers.authorization',
  'res.headers["set-cookie"]',
  'cookie',
  'authorization',
];

/**
 * Log lines wait in memory until 4 KiB have gathered or 250 ms have passed, so
 * a busy server writes one block per burst instead of one write per access
 * line (a write per line cost more than the rest of a prerendered page's
 * answer). Shutdown and fatal errors flush (src/server/shutdown.ts); only a
 * SIGKILL can lose the last 250 ms.
 */
export function bufferedStdout(): pino.DestinationStream {
  return pino.destination({ sync: false, minLength: 4096, periodicFlush: 250 });
}

/**
 * The one root logger: JSON lines on stdout, with the trace and span of the
 * active request when tracing is on. Pretty output is for piping in development
 * (`npm start | npx pino-pretty`), never built in.
 */
export function createLogger(
  config: Pick<ServerConfig, 'logLevel'> & { tracing: { enabled: boolean } },
  base: Record<string, unknown>,
  destination: pino.DestinationStream = bufferedStdout(),
): Logger {
  return pino(
    {
      level: config.logLevel,
      base,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      ...(config.tracing.enabled ? { mixin: activeTraceFields } : {}),
    },
    destination,
  );
}

function activeTraceFields(): Record<string, string> {
  const span = trace.getActiveSpan();
  if (!span) return {};
  const { traceId, spanId } = span.spanContext();
  return { trace_id: traceId, span_id: spanId };
}
