/**
 * A minimal JSON-lines logger with pino's call shape (`logger.error(fields, msg)`),
 * so the server's pino logger can take its place without touching callers.
 */
type Fields = Record<string, unknown>;
type Level = 'debug' | 'info' | 'warn' | 'error';

const LEVEL_NUMBERS: Record<Level, number> = { debug: 20, info: 30, warn: 40, error: 50 };

function serializeCause(value: unknown): unknown {
  if (value instanceof Error) return { type: value.name, message: value.message };
  return value;
}

function write(level: Level, fields: Fields, msg: string): void {
  const entry: Fields = { level: LEVEL_NUMBERS[level], time: Date.now(), msg };
  for (const [key, value] of Object.entries(fields)) entry[key] = serializeCause(value);
  process.stdout.write(`${JSON.stringify(entry)}\n`);
}

export const logger = {
  debug: (fields: Fields, msg: string) => write('debug', fields, msg),
  info: (fields: Fields, msg: string) => write('info', fields, msg),
  warn: (fields: Fields, msg: string) => write('warn', fields, msg),
  error: (fields: Fields, msg: string) => write('error', fields, msg),
};
