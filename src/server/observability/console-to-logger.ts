import { format } from 'node:util';
import type { Logger } from 'pino';

const ANSI = /\u001b\[[0-9;]*m/g;
const MAX_MESSAGE = 4000;

/**
 * Sends what libraries print with console.* (Next logs its own events and
 * render errors that way) through the logger, so every stdout line is JSON.
 */
export function routeConsoleToLogger(logger: Logger): void {
  const forward =
    (level: 'debug' | 'info' | 'warn' | 'error') =>
    (...args: unknown[]) => {
      const error = args.find((arg): arg is Error => arg instanceof Error);
      const message = format(...args)
        .replace(ANSI, '')
        .slice(0, MAX_MESSAGE);
      logger[level]({ source: 'console', ...(error ? { err: error } : {}) }, message);
    };
  console.log = forward('info');
  console.info = forward('info');
  console.warn = forward('warn');
  console.error = forward('error');
  console.debug = forward('debug');
}
