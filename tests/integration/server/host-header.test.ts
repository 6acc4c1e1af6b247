import { describe, expect, it } from 'vitest';
import { rawRequest } from '../support/raw-http';
import { portOf, serverPerFile } from '../support/server-process';

// RFC 9112 §3.2: exactly one Host with a valid value (RFC 3986 host and port), or 400, on every path.

const server = serverPerFile();

/** A page from memory, a file from memory, a 404 from the template, one Next renders, a probe, the beacon endpoint. */
const PATHS = ['/ja', '/favicon.ico', '/ja/no-such-page', '/ja/no-such-page?x=1', '/healthz', '/api/x'];

const send = (path: string, hostLines: string, version = '1.1') =>
  rawRequest(portOf(server), `GET ${path} HTTP/${version}\r\n${hostLines}Connection: close\r\n\r\n`);

describe('the Host header', () => {
  it.each([
    ['a name', 'example.com'],
    ['an upper-case name', 'EXAMPLE.COM'],
    ['a name with a trailing dot', 'example.com.'],
    ['a name and port', 'example.com:8080'],
    ['an IPv4 address and port', '127.0.0.1:3000'],
    ['an IPv6 literal', '[::1]'],
    ['an IPv6 literal and port', '[::1]:3000'],
    ['an IDN in punycode', 'xn--bcher-kva.example'],
  ])('%s (%s) is served', async (_, host) => {
    for (const path of PATHS) {
      const reply = await send(path, `Host: ${host}\r\n`);
      expect(reply.status, `${path} Host: ${host}`).not.toBe(400);
      expect(reply.status, `${path} Host: ${host}`).toBeLessThan(500);
    }
  });

  it.each([
    ['no Host', ''],
    ['two Hosts', 'Host: example.com\r\nHost: example.com\r\n'],
    ['two different Hosts', 'Host: example.com\r\nhost: evil.example\r\n'],
    ['a space', 'Host: example .com\r\n'],
    ['a <', 'Host: exa<mple.com\r\n'],
    ['a /', 'Host: example.com/x\r\n'],
    ['an @', 'Host: user@example.com\r\n'],
    ['userinfo before the port', 'Host: localhost:3000@evil.example\r\n'],
    ['raw UTF-8', 'Host: b\u00c3\u00bccher.example\r\n'],
    ['a port that is no number', 'Host: example.com:http\r\n'],
    ['an unclosed IPv6 literal', 'Host: [::1\r\n'],
    ['an IPv6 address without brackets', 'Host: ::1\r\n'],
  ])('%s gets 400, with the usual headers, on every path', async (_, hostLines) => {
    for (const path of PATHS) {
      const reply = await send(path, hostLines);
      expect(reply.status, `${path} ${JSON.stringify(hostLines)}`).toBe(400);
      expect(reply.headers['content-type'], path).toBe('text/plain; charset=utf-8');
      expect(reply.headers['x-content-type-options'], path).toBe('nosniff');
      expect(reply.headers.date, path).toBeTruthy();
    }
  });

  it('may be left out in HTTP/1.0, but not sent twice', async () => {
    expect((await send('/ja', '', '1.0')).status).toBe(200);
    expect((await send('/ja', 'Host: a\r\nHost: a\r\n', '1.0')).status).toBe(400);
  });
});
