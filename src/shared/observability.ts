/**
 * How code bundled by Next (the locale loader) reaches the server's logger and
 * metrics, which live in the Node entry (src/server) and are never bundled: the
 * entry installs its hooks on a global key before it loads Next. Without an
 * entry (`next dev`) a plain JSON-lines writer stands in.
 */
export type LogFields = Record<string, unknown>;

export interface LoggerLike {
  debug(fields: LogFields, msg: string): void;
  info(fields: LogFields, msg: string): void;
  warn(fields: LogFields, msg: string): void;
  error(fields: LogFields, msg: string): void;
}

export interface LocaleLoadFailure {
  locale: string;
  namespace: string;
  source: 'server' | 'client';
}

export interface ObservabilityHooks {
  logger: LoggerLike;
  localeLoadFailed(failure: LocaleLoadFailure): void;
}

const KEY = Symbol.for('meridian.observability');

type WithHooks = typeof globalThis & { [KEY]?: ObservabilityHooks };

const LEVELS = { debug: 20, info: 30, warn: 40, error: 50 } as const;

function serialize(value: unknown): unknown {
  return value instanceof Error ? { type: value.name, message: value.message } : value;
}

function writeLine(level: keyof typeof LEVELS, fields: LogFields, msg: string): void {
  const entry: LogFields = { level: LEVELS[level], time: Date.now(), msg };
  for (const [key, value] of Object.entries(fields)) entry[key] = serialize(value);
  process.stdout.write(`${JSON.stringify(entry)}\n`);
}

const standIn: ObservabilityHooks = {
  logger: {
    debug: (fields, msg) => writeLine('debug', fields, msg),
    info: (fields, msg) => writeLine('info', fields, msg),
    warn: (fields, msg) => writeLine('warn', fields, msg),
    error: (fields, msg) => writeLine('error', fields, msg),
  },
  localeLoadFailed: () => {},
};

export function installObservability(hooks: ObservabilityHooks): void {
  (globalThis as WithHooks)[KEY] = hooks;
}

export function observability(): ObservabilityHooks {
  return (globalThis as WithHooks)[KEY] ?? standIn;
}
