import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { preferredCoding } from '@/server/serving/negotiation/negotiation';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('preferredCoding (RFC 9110 §12.5.3)', () => {
  it.each([
    // The RFC's own examples of the field.
    ['compress, gzip', 'gzip'],
    ['', 'identity'],
    ['*', 'br'],
    ['compress;q=0.5, gzip;q=1.0', 'gzip'],
    ['gzip;q=1.0, identity; q=0.5, *;q=0', 'gzip'],
    // A coding with q=0 is refused, even when named as a token elsewhere.
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0, gzip;q=0', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip;q=0.5, br;q=0.5', 'br'],
    ['gzip;q=0.9, br;q=0.5', 'gzip'],
    ['BR', 'br'],
    ['*;q=0.1, br;q=0', 'gzip'],
    // identity is acceptable unless refused by name or by `*;q=0`.
    ['deflate', 'identity'],
    ['identity;q=0', undefined],
    ['*;q=0', undefined],
    ['identity;q=0, *;q=0', undefined],
    ['identity;q=0, gzip', 'gzip'],
    // x-gzip is gzip (§8.4.1.3).
    ['x-gzip', 'gzip'],
    ['X-GZIP;q=0.5, identity;q=0.1', 'gzip'],
    ['x-gzip, identity;q=0', 'gzip'],
    ['x-gzipped', 'identity'],
  ])('Accept-Encoding "%s" gets %s', (header, expected) => {
    expect(preferredCoding(request({ 'accept-encoding': header }), ['br', 'gzip', 'identity'])).toBe(expected);
  });

  it('sends identity when there is no Accept-Encoding at all', () => {
    expect(preferredCoding(request({}), ['br', 'gzip', 'identity'])).toBe('identity');
  });

  it('picks only among the codings the resource has', () => {
    expect(preferredCoding(request({ 'accept-encoding': 'gzip' }), ['br', 'identity'])).toBe('identity');
    expect(preferredCoding(request({ 'accept-encoding': 'br;q=0, *' }), ['br', 'identity'])).toBe('identity');
  });
});

describe('preferredCoding, asked again with the same list of codings', () => {
  const codings = ['br', 'gzip', 'identity'] as const;

  it('answers each header by its own value, however many distinct values have been seen', () => {
    const answer = (header: string) => preferredCoding(request({ 'accept-encoding': header }), codings);
    for (let round = 0; round < 3; round += 1) {
      // More distinct values than the memo keeps, interleaved with the common ones.
      for (let i = 0; i < 300; i += 1) {
        expect(answer(`x-${i}, gzip;q=0.${(i % 9) + 1}`)).toBe('gzip');
        expect(answer('br;q=0, gzip')).toBe('gzip');
        expect(answer('gzip, deflate, br')).toBe('br');
      }
      expect(answer('identity;q=0')).toBeUndefined();
      expect(answer(`${'x, '.repeat(200)}br`)).toBe('br');
      expect(preferredCoding(request({}), codings)).toBe('identity');
    }
  });
});
