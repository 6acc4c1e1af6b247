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
 * The one root logger: JSON lines on stdout, with the trace and span of the
 * active request when tracing is on. Pretty output is for piping in development
 * (`npm start | npx pino-pretty`), never built in.
 */
export function createLogger(config: Pick<ServerConfig, 'logLevel'>, base: Record<string, unknown>, destination = pino.destination({ sync: false })): Logger {
  return pino(
    {
      level: config.logLevel,
      base,
      redact: { paths: REDACTED_PATHS, censor: '[redacted]' },
      messageKey: 'msg',
      timestamp: pino.stdTimeFunctions.isoTime,
      mixin() {
        const span = trace.getActiveSpan();
        if (!span) return {};
        const { traceId, spanId } = span.spanContext();
        return { trace_id: traceId, span_id: spanId };
      },
    },
    destination,
  );
}
