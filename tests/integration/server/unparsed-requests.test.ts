import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, logLine, parseSeries, scrape, valueOf } from '../support/http';
import { rawRequest } from '../support/raw-http';
import { jsonLines, portOf, startServer, type RunningServer } from '../support/server-process';

// What Node's parser refuses never reaches the pipeline: answered as every other answer is
// (Date, the security headers), by the status RFC 9110 gives it, counted by reason, logged once.

let server: RunningServer;
let port: number;

beforeAll(async () => {
  server = await startServer({ HEADERS_TIMEOUT_MS: '1000' });
  port = portOf(server);
});

afterAll(async () => {
  await server?.stop();
});

const LONG = 17 * 1024;

const CASES: [string, number, string, string][] = [
  ['a 17 KiB request-target', 414, 'uri_too_long', `GET /${'a'.repeat(LONG)} HTTP/1.1\r\nHost: x\r\n\r\n`],
  ['a 17 KiB header', 431, 'header_too_large', `GET / HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(LONG)}\r\n\r\n`],
  ['a method Node does not know', 501, 'unknown_method', 'BREW /ja HTTP/1.1\r\nHost: x\r\n\r\n'],
  ['CONNECT', 405, 'connect', 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n'],
  ['a malformed request line', 400, 'malformed', 'GET /ja HTTP/9.9.9\r\nHost: x\r\n\r\n'],
  [
    'Content-Length beside Transfer-Encoding',
    400,
    'bad_framing',
    'POST /api/telemetry HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\nTransfer-Encoding: chunked\r\n\r\n',
  ],
  ['a head never finished', 408, 'timeout', 'GET /ja HTTP/1.1\r\nHost: x\r\nAccept: te'],
];

describe('requests Node cannot parse', () => {
  it.each(CASES)('%s: %i, with Date and the security headers', async (_, status, _reason, bytes) => {
    const reply = await rawRequest(port, bytes);
    expect(reply.status).toBe(status);
    expect(Date.parse(reply.headers.date ?? '')).toBeGreaterThan(0);
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
    expect(reply.headers['x-frame-options']).toBe('DENY');
    expect(reply.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.headers.connection).toBe('close');
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  });

  it('answers a method it does not implement 501, with no Allow: no method is refused for the target', async () => {
    for (const line of ['BREW /api/telemetry HTTP/1.1', 'get /ja HTTP/1.1', 'FOO / HTTP/1.1']) {
      const reply = await rawRequest(port, `${line}\r\nHost: x\r\n\r\n`);
      expect(reply.status, line).toBe(501);
      expect(reply.headers.allow, line).toBeUndefined();
      expect(reply.body, line).toBe('Not Implemented\n');
    }
  });

  it('answers what is no request line at all 400, not as a method', async () => {
    for (const line of [' GET / HTTP/1.1', '/ HTTP/1.1', 'GET/ HTTP/1.1', 'G@T / HTTP/1.1', 'GET', '\u0016\u0003\u0001\u0002\u0000']) {
      const reply = await rawRequest(port, `${line}\r\nHost: x\r\n\r\n`);
      expect(reply.status, JSON.stringify(line)).toBe(400);
      expect(reply.headers.connection, JSON.stringify(line)).toBe('close');
    }
  });

  it('answers a good request and then the bad one behind it on the same connection, in order, before closing', async () => {
    // From memory at once, and rendered by Next (its answer still on its way when the bad request is read).
    for (const [good, status] of [
      ['GET /ja HTTP/1.1', 200],
      ['GET /ja/missing HTTP/1.1', 404],
      ['GET /healthz HTTP/1.1', 200],
      ['GET /ja/nope$x HTTP/1.1', 404],
    ] as const) {
      const reply = await rawRequest(port, `${good}\r\nHost: x\r\n\r\nGET / HTTP/9.9.9\r\nHost: x\r\n\r\n`);
      expect(reply.status, good).toBe(status);
      expect(reply.body, good).toMatch(/HTTP\/1\.1 400 Bad Request\r\n[^]*Connection: close\r\n\r\nBad Request\n$/);
    }
  });

  it('counts each under its reason, and logs each once', async () => {
    // Log lines wait up to 250 ms in memory: the earlier tests' are out after this.
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const before = await scrape(server);
    const linesBefore = jsonLines(server).length;
    for (const [, , , bytes] of CASES) await rawRequest(port, bytes);
    await eventually(async () => {
      const after = await scrape(server);
      for (const [name, status, reason] of CASES) {
        const count = (text: string) => valueOf(text, 'http_server_unparsed_requests_total', { reason }) ?? 0;
        expect(count(after) - count(before), name).toBe(1);
        const observed = parseSeries(after).filter(
          (series) =>
            series.name === 'http_server_request_duration_seconds_count' &&
            series.labels.route === 'unparsed' &&
            series.labels.status_code === String(status),
        );
        expect(observed.length, name).toBeGreaterThan(0);
      }
      const lines = jsonLines(server)
        .slice(linesBefore)
        .filter((line) => line.route === 'unparsed');
      expect(lines.map((line) => line.reason).sort()).toEqual(CASES.map(([, , reason]) => reason).sort());
    });
    await logLine(server, (line) => line.reason === 'uri_too_long' && line.status === 414 && String(line.path).length === 512);
  });
});

describe('Transfer-Encoding (RFC 9112 §6.1)', () => {
  it.each([
    ['gzip', 'GET /ja HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip\r\n\r\n'],
    ['chunked, chunked', 'GET /ja HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, chunked\r\n\r\n0\r\n\r\n'],
    ['chunked, then gzip', 'POST /api/telemetry HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked, gzip\r\n\r\n'],
    ['chunked, in HTTP/1.0', 'GET /ja HTTP/1.0\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n'],
  ])('%s gets 400 and the connection closed', async (_, bytes) => {
    const reply = await rawRequest(port, bytes);
    expect(reply.status).toBe(400);
    expect(reply.headers.connection).toBe('close');
    expect(reply.headers['x-content-type-options']).toBe('nosniff');
  });

  it.each([
    ['gzip, then chunked', 'GET /ja HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: gzip, chunked\r\n\r\n0\r\n\r\n'],
    ['deflate, then chunked', 'POST /api/telemetry HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: deflate, chunked\r\n\r\n0\r\n\r\n'],
  ])('%s (a coding the server does not implement, framed by chunked) gets 501 and the connection closed', async (_, bytes) => {
    const reply = await rawRequest(port, bytes);
    expect(reply.status).toBe(501);
    expect(reply.headers.connection).toBe('close');
    expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('chunked alone is read', async () => {
    const reply = await rawRequest(port, 'GET /ja HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\nConnection: close\r\n\r\n0\r\n\r\n');
    expect(reply.status).toBe(200);
  });

  it('logs no error for any of it', () => {
    expect(jsonLines(server).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
