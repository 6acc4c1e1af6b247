import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from '@/server/serving/edge/request-id';

const request = (headers: Record<string, string>, remoteAddress = '10.0.0.9') =>
  ({ headers, socket: { remoteAddress } }) as unknown as IncomingMessage;

describe('requestIdOf', () => {
  it('keeps a valid X-Request-Id and replaces anything else', () => {
    expect(requestIdOf(request({ 'x-request-id': 'abc-123.4:5_6' }))).toBe('abc-123.4:5_6');
    for (const bad of ['with space', 'x'.repeat(129), '', '<script>', 'a\nb']) {
      const id = requestIdOf(request({ 'x-request-id': bad }));
      expect(id).not.toBe(bad);
      expect(id).toMatch(/^[0-9a-f-]{36}$/);
    }
  });
});
