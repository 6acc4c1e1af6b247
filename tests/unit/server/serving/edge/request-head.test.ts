import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { isValidHost, malformedHeadOf } from '@/server/serving/edge/request-head';

describe('isValidHost (RFC 9110 §7.2, RFC 3986 host)', () => {
  it.each([
    'example.com',
    'EXAMPLE.COM',
    'example.com.',
    'example.com:443',
    'example.com:',
    '127.0.0.1',
    '127.0.0.1:3000',
    '[::1]',
    '[::1]:3000',
    '[2001:db8::7]',
    '[::ffff:192.0.2.1]',
    '[v1.fe80::a+en1]',
    'xn--bcher-kva.example',
    "a_b~c!$&'()*+,;=d",
    '%65xample.com',
    '',
  ])('accepts %j', (host) => {
    expect(isValidHost(host)).toBe(true);
  });

  it.each([
    'a b',
    'a<b',
    'evil.example/x',
    'user@evil.example',
    'localhost:3000@evil.example',
    'bücher.example',
    'b\u00c3\u00bccher.example',
    'example.com:x',
    'example.com:443:1',
    '[::1',
    '[:::1]',
    '[example.com]',
    '::1',
    'a%zz',
    'a\tb',
  ])('refuses %j', (host) => {
    expect(isValidHost(host)).toBe(false);
  });
});

const head = (rawHeaders: string[], httpVersion = '1.1') => {
  const headers: Record<string, string> = {};
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = (rawHeaders[index] as string).toLowerCase();
    if (name === 'host' && headers.host !== undefined) continue;
    headers[name] = headers[name] === undefined ? (rawHeaders[index + 1] as string) : `${headers[name]}, ${rawHeaders[index + 1]}`;
  }
  return { rawHeaders, headers, httpVersion } as unknown as IncomingMessage;
};

describe('malformedHeadOf', () => {
  it('passes one valid Host, and none in HTTP/1.0', () => {
    expect(malformedHeadOf(head(['Host', 'example.com']))).toBeUndefined();
    expect(malformedHeadOf(head([], '1.0'))).toBeUndefined();
  });

  it.each([
    ['no Host in HTTP/1.1', [], '1.1'],
    ['two Hosts', ['Host', 'a.example', 'host', 'a.example'], '1.1'],
    ['two Hosts in HTTP/1.0', ['HOST', 'a.example', 'Host', 'b.example'], '1.0'],
    ['a Host with a space', ['Host', 'a b'], '1.1'],
  ])('refuses %s', (_, rawHeaders, version) => {
    expect(malformedHeadOf(head(rawHeaders, version))).toMatchObject({ status: 400, text: expect.stringMatching(/Host/) });
  });

  it.each([
    ['chunked', undefined],
    ['Chunked', undefined],
    ['chunked;foo=bar', undefined],
    ['gzip', 400],
    ['chunked, gzip', 400],
    ['gzip, chunked', 501],
    ['x-gzip, deflate, chunked', 501],
    [', chunked', 400],
    ['chunked, chunked', 400],
    ['gzip, chunked, chunked', 400],
    ['', 400],
  ])('Transfer-Encoding: %j → %s', (value, status) => {
    const result = malformedHeadOf(head(['Host', 'x', 'Transfer-Encoding', value]));
    if (status) expect(result).toMatchObject({ status, text: expect.stringMatching(/Transfer-Encoding/) });
    else expect(result).toBeUndefined();
  });

  it('refuses any Transfer-Encoding in HTTP/1.0', () => {
    expect(malformedHeadOf(head(['Host', 'x', 'Transfer-Encoding', 'chunked'], '1.0'))).toMatchObject({ status: 400 });
  });
});
