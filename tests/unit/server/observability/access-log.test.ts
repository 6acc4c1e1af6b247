import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { flushAccessLines, writeAccessLine, type AccessLine } from '@/server/observability/access-log';
import { createLogger } from '@/server/observability/logger';

const BASE = { service: 'meridian', build_id: 'b1' };

function capturedLogger(logLevel: 'debug' | 'info' | 'warn') {
  const lines: string[] = [];
  const logger = createLogger(
    { logLevel, tracing: { enabled: false } },
    BASE,
    new Writable({
      write(chunk: Buffer, _encoding, done) {
        lines.push(chunk.toString('utf8'));
        done();
      },
    }),
  );
  return { logger, lines };
}

const line = (overrides: Partial<AccessLine>): AccessLine => ({
  request_id: 'request-1',
  method: 'GET',
  path: '/ja',
  route: '/[locale]',
  status: 200,
  duration_ms: 0.25,
  bytes: 28_700,
  locale: 'ja',
  user_agent: 'Mozilla/5.0',
  remote_address: '203.0.113.9',
  aborted: undefined,
  ...overrides,
});

/** A line as written, with its time (which differs by the microsecond) set aside. */
function withoutTime(written: string) {
  const { time, ...rest } = JSON.parse(written) as Record<string, unknown>;
  expect(time).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  return { keys: Object.keys(rest), rest };
}

describe('writeAccessLine', () => {
  it.each([
    ['a page', line({})],
    ['a file, no locale', line({ path: '/robots.txt', route: 'public_file', locale: undefined })],
    ['an aborted request', line({ aborted: true, status: 499 })],
    ['a traced request', line({ trace_id: '0af7651916cd43dd8448eb211c80319c', span_id: 'b7ad6b7169203331' })],
    ['quotes, controls and other scripts', line({ path: '/ja/"\\\n\t\u0000日本語', user_agent: 'Bot "x" \u2028 \ud83d\ude00' })],
  ])('writes %s exactly as pino itself would', (_name, accessLine) => {
    const ours = capturedLogger('info');
    writeAccessLine(ours.logger, accessLine.path, accessLine);
    flushAccessLines();
    const reference = capturedLogger('info');
    reference.logger.info(accessLine, 'request');

    expect(ours.lines).toHaveLength(1);
    expect(ours.lines[0]?.endsWith('}\n')).toBe(true);
    expect(withoutTime(ours.lines[0] ?? '')).toEqual(withoutTime(reference.lines[0] ?? ''));
  });

  it('keeps a lone surrogate as an escape, where pino would write U+FFFD', () => {
    const { logger, lines } = capturedLogger('info');
    writeAccessLine(logger, '/\ud800', line({ path: '/\ud800', user_agent: '\udfff' }));
    flushAccessLines();
    expect(lines[0]).toContain(String.raw`"path":"/\ud800"`);
    expect(JSON.parse(lines[0] ?? '')).toMatchObject({ path: '/\ud800', user_agent: '\udfff' });
  });

  it('logs probes at debug level, and nothing below the configured level', () => {
    const debug = capturedLogger('debug');
    writeAccessLine(debug.logger, '/healthz', line({ path: '/healthz', route: '/healthz', locale: undefined }));
    const info = capturedLogger('info');
    writeAccessLine(info.logger, '/healthz', line({ path: '/healthz', route: '/healthz', locale: undefined }));
    const warn = capturedLogger('warn');
    writeAccessLine(warn.logger, '/ja', line({}));
    flushAccessLines();

    expect(debug.lines.map((written) => JSON.parse(written) as unknown)).toEqual([
      expect.objectContaining({ level: 20, route: '/healthz' }),
    ]);
    expect(info.lines).toEqual([]);
    expect(warn.lines).toEqual([]);
  });

  it('writes the lines of one turn of the event loop together, after it, in one write', async () => {
    const { logger, lines } = capturedLogger('info');
    writeAccessLine(logger, '/ja', line({ request_id: 'first' }));
    writeAccessLine(logger, '/ja', line({ request_id: 'second' }));
    expect(lines).toEqual([]);
    await new Promise(setImmediate);
    expect(lines).toHaveLength(1);
    const written = (lines[0] ?? '').split('\n');
    expect(written.pop()).toBe('');
    expect(written.map((text) => (JSON.parse(text) as AccessLine).request_id)).toEqual(['first', 'second']);
  });
});
