import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { evaluatePreconditions } from '@/server/serving/negotiation/preconditions';

const request = (headers: Record<string, string>) => ({ headers }) as unknown as IncomingMessage;

describe('evaluatePreconditions (RFC 9110 §13.2.2), for GET and HEAD', () => {
  const page = { etag: '"xyzzy"', lastModified: 'Sat, 29 Oct 1994 19:43:31 GMT' };

  it.each([
    // If-None-Match: lists, weak comparison, `*`.
    [{ 'if-none-match': '"xyzzy"' }, 'not-modified'],
    [{ 'if-none-match': 'W/"xyzzy"' }, 'not-modified'],
    [{ 'if-none-match': '"r2d2xxxx", "c3piozzzz", "xyzzy"' }, 'not-modified'],
    [{ 'if-none-match': 'W/"r2d2xxxx", W/"xyzzy"' }, 'not-modified'],
    [{ 'if-none-match': '*' }, 'not-modified'],
    [{ 'if-none-match': '"r2d2xxxx", "c3piozzzz"' }, 'proceed'],
    [{ 'if-none-match': 'xyzzy' }, 'proceed'],
    [{ 'if-none-match': '"XYZZY"' }, 'proceed'],
    // If-Modified-Since: not modified since that date.
    [{ 'if-modified-since': 'Sat, 29 Oct 1994 19:43:31 GMT' }, 'not-modified'],
    [{ 'if-modified-since': 'Sun, 30 Oct 1994 00:00:00 GMT' }, 'not-modified'],
    [{ 'if-modified-since': 'Fri, 28 Oct 1994 00:00:00 GMT' }, 'proceed'],
    [{ 'if-modified-since': 'not a date' }, 'proceed'],
    // With If-None-Match present, If-Modified-Since is ignored (§13.1.3).
    [{ 'if-none-match': '"other"', 'if-modified-since': 'Sun, 30 Oct 1994 00:00:00 GMT' }, 'proceed'],
    // The request's Cache-Control is for caches; the origin evaluates the condition all the same.
    [{ 'if-none-match': '"xyzzy"', 'cache-control': 'no-cache' }, 'not-modified'],
    [{ 'if-modified-since': 'Sun, 30 Oct 1994 00:00:00 GMT', 'cache-control': 'no-cache', pragma: 'no-cache' }, 'not-modified'],
    // If-Match: strong comparison, `*`, and a false one is a 412 before anything else.
    [{ 'if-match': '"xyzzy"' }, 'proceed'],
    [{ 'if-match': '"nope", "xyzzy"' }, 'proceed'],
    [{ 'if-match': '*' }, 'proceed'],
    [{ 'if-match': '"nope"' }, 'failed'],
    [{ 'if-match': 'W/"xyzzy"' }, 'failed'],
    [{ 'if-match': 'nope' }, 'failed'],
    [{ 'if-match': '"nope"', 'if-none-match': '"xyzzy"' }, 'failed'],
    // If-Unmodified-Since: a date before the last change is false; ignored with If-Match or when unreadable.
    [{ 'if-unmodified-since': 'Fri, 28 Oct 1994 00:00:00 GMT' }, 'failed'],
    [{ 'if-unmodified-since': 'Sat, 29 Oct 1994 19:43:31 GMT' }, 'proceed'],
    [{ 'if-unmodified-since': 'Sun, 30 Oct 1994 00:00:00 GMT' }, 'proceed'],
    [{ 'if-unmodified-since': 'yesterday' }, 'proceed'],
    [{ 'if-match': '"xyzzy"', 'if-unmodified-since': 'Fri, 28 Oct 1994 00:00:00 GMT' }, 'proceed'],
    [{ 'if-unmodified-since': 'Sun, 30 Oct 1994 00:00:00 GMT', 'if-none-match': '"xyzzy"' }, 'not-modified'],
    [{}, 'proceed'],
  ])('%j: %s', (headers, expected) => {
    expect(evaluatePreconditions(request(headers as Record<string, string>), page)).toBe(expected);
  });

  it('compares a weak current tag weakly for If-None-Match and never matches it for If-Match', () => {
    const weak = { etag: 'W/"xyzzy"', lastModified: page.lastModified };
    expect(evaluatePreconditions(request({ 'if-none-match': '"xyzzy"' }), weak)).toBe('not-modified');
    expect(evaluatePreconditions(request({ 'if-match': 'W/"xyzzy"' }), weak)).toBe('failed');
  });
});
