import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { requestIdOf } from '@/server/http/request-id';
import { clientAddressOf, schemeOf } from '@/server/http/client-address';

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

describe('clientAddressOf and schemeOf', () => {
  it('believe forwarding headers only with TRUST_PROXY', () => {
    const req = request({ 'x-forwarded-for': '203.0.113.7, 10.0.0.1', 'x-forwarded-proto': 'https' });
    expect(clientAddressOf(req, false)).toBe('10.0.0.9');
    expect(clientAddressOf(req, true)).toBe('203.0.113.7');
    expect(schemeOf(req, false)).toBe('http');
    expect(schemeOf(req, true)).toBe('https');
  });

  it('ignore an absurd forwarded address', () => {
    expect(clientAddressOf(request({ 'x-forwarded-for': 'x'.repeat(500) }), true)).toBe('10.0.0.9');
  });
});
