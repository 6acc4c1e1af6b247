import { Writable } from 'node:stream';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { writeAccessLine, type AccessLine } from '@/server/observability/access-log';
import { flushAndExit } from '@/server/shutdown';

const LINE: AccessLine = {
  request_id: 'request-1',
  method: 'GET',
  path: '/ja',
  route: '/[locale]',
  status: 200,
  duration_ms: 0.2,
  bytes: 10,
  locale: 'ja',
  user_agent: 'test',
  remote_address: '203.0.113.9',
  aborted: undefined,
};

describe('flushAndExit', () => {
  it('logs the access lines still waiting for their turn before it exits', async () => {
    const written: string[] = [];
    const logger = pino(
      { level: 'info' },
      new Writable({
        write(chunk: Buffer, _encoding, done) {
          written.push(chunk.toString('utf8'));
          done();
        },
      }),
    );
    const exited = new Promise<number>((resolve) => {
      writeAccessLine(logger, '/ja', LINE);
      // In the same turn: the line has not been serialized yet.
      expect(written).toEqual([]);
      flushAndExit(logger, resolve, 0);
    });
    expect(await exited).toBe(0);
    expect(written.map((line) => JSON.parse(line) as unknown)).toEqual([
      expect.objectContaining({ msg: 'request', request_id: 'request-1' }),
    ]);
  });
});
