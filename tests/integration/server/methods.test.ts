import { connect } from 'node:net';
import { describe, expect, it } from 'vitest';
import { parseSeries, request, scrape } from '../support/http';
import { jsonLines, serverPerFile } from '../support/server-process';

const server = serverPerFile();

/** Sends bytes as written (node:http refuses CONNECT without a tunnel and checks the method) and reads the whole answer. */
function raw(bytes: string): Promise<{ status: number; headers: Record<string, string>; body: string }> {
  const { port } = new URL(server.url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
    let text = '';
    socket.setEncoding('latin1');
    socket.setTimeout(10_000, () => socket.destroy(new Error('no answer within 10 s')));
    socket.on('data', (chunk: string) => (text += chunk));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = text.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((line) => [line.slice(0, line.indexOf(':')).toLowerCase(), line.slice(line.indexOf(':') + 1).trim()]),
      );
      resolve({ status: Number(statusLine.split(' ')[1] ?? 0), headers, body });
    });
  });
}

const PATHS = [
  '/',
  '/ja',
  '/zh-CN',
  '/no/such/page',
  '/builds/latest.json',
  '/healthz',
  '/favicon.svg',
  '/robots.txt',
  '/_next/static/chunks/x.js',
];

describe('methods on the public port', () => {
  it.each(['TRACE', 'PUT', 'DELETE', 'PATCH', 'POST', 'PROPFIND', 'MKCOL', 'COPY', 'LOCK', 'PURGE', 'SEARCH'])(
    '%s gets 405 with Allow: GET, HEAD and a one-line body, on pages, build files and static files',
    async (method) => {
      for (const path of PATHS) {
        // node:http frames no body for TRACE and DELETE (it would reach the server as a second request).
        const framed = method !== 'TRACE' && method !== 'DELETE';
        const reply = await request(`${server.url}${path}`, { method, body: framed ? 'x=1' : undefined });
        expect(reply.status, `${method} ${path}`).toBe(405);
        expect(reply.headers.allow, `${method} ${path}`).toBe('GET, HEAD');
        expect(reply.body, `${method} ${path}`).toBe('Method Not Allowed\n');
        expect(reply.headers['content-type']).toMatch(/^text\/plain/);
      }
    },
  );

  it('answers OPTIONS with 204 and Allow, without a page', async () => {
    for (const path of PATHS) {
      const reply = await request(`${server.url}${path}`, { method: 'OPTIONS' });
      expect(reply.status, path).toBe(204);
      expect(reply.headers.allow, path).toBe('GET, HEAD');
      expect(reply.body).toBe('');
    }
    expect((await raw('OPTIONS * HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n')).status).toBe(204);
  });

  it('answers 400 to a target that is no path (`*`, an authority) for any other method, router requests included', async () => {
    for (const target of ['*', 'evil.example:443']) {
      for (const [method, extra] of [
        ['GET', ''],
        ['GET', 'RSC: 1\r\n'],
        ['GET', 'Next-Router-Prefetch: 1\r\nRSC: 1\r\n'],
        ['HEAD', ''],
      ]) {
        const reply = await raw(`${method} ${target} HTTP/1.1\r\nHost: x\r\n${extra}Connection: close\r\n\r\n`);
        expect(reply.status, `${method} ${target} ${extra}`).toBe(400);
      }
    }
  });

  it('answers CONNECT with 405 and Allow (Node’s parser never hands it on)', async () => {
    const reply = await raw('CONNECT example.com:443 HTTP/1.1\r\nHost: example.com\r\n\r\n');
    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('GET, HEAD');
    expect(reply.body).toBe('Method Not Allowed\n');
  });

  it('answers methods it does not know (TRACK, made-up tokens, lowercase get) with 501, and what is no request line with 400', async () => {
    for (const line of ['TRACK / HTTP/1.1', 'FOO / HTTP/1.1', 'BREW /ja HTTP/1.1', 'get / HTTP/1.1', 'Get /ja HTTP/1.1']) {
      const reply = await raw(`${line}\r\nHost: example.com\r\n\r\n`);
      expect(reply.status, line).toBe(501);
      expect(reply.headers['content-type'], line).toBe('text/plain; charset=utf-8');
      expect(reply.body, line).toBe('Not Implemented\n');
    }
    for (const line of ['/ HTTP/1.1', ' GET / HTTP/1.1', 'GET/ HTTP/1.1', 'GET']) {
      expect((await raw(`${line}\r\nHost: example.com\r\n\r\n`)).status, JSON.stringify(line)).toBe(400);
    }
  });

  it('stays up when a client resets its connection after the 405 or 501, or in the middle of a request', async () => {
    const { port } = new URL(server.url);
    const resetAfterReply = (bytes: string) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes));
        socket.on('data', () => socket.resetAndDestroy());
        socket.on('error', () => {});
        socket.on('close', () => resolve());
      });
    const resetMidRequest = (bytes: string) =>
      new Promise<void>((resolve) => {
        const socket = connect(Number(port), '127.0.0.1', () => socket.write(bytes, () => setTimeout(() => socket.resetAndDestroy(), 50)));
        socket.on('error', () => {});
        socket.on('close', () => resolve());
      });
    for (const line of ['CONNECT example.com:443 HTTP/1.1', 'TRACK / HTTP/1.1', 'FOO / HTTP/1.1', 'TRACE / HTTP/1.1', 'GET /ja HTTP/1.1']) {
      await resetAfterReply(`${line}\r\nHost: example.com\r\n\r\n`);
    }
    await resetAfterReply('GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n');
    for (const partial of [
      'CONNECT example.com:443 HTTP/1.1\r\nHost: exa',
      'GET /ja HTTP/1.1\r\nHost: x\r\nAccept-',
      'POST /api/telemetry HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"a',
    ]) {
      await resetMidRequest(partial);
    }
    expect((await request(`${server.url}/healthz`)).status).toBe(200);
    expect(jsonLines(server).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('answers /api/telemetry with Allow: POST to anything else', async () => {
    for (const method of ['GET', 'HEAD', 'PUT', 'TRACE', 'DELETE']) {
      const reply = await request(`${server.url}/api/telemetry`, { method });
      expect(reply.status, method).toBe(405);
      expect(reply.headers.allow, method).toBe('POST');
    }
    const options = await request(`${server.url}/api/telemetry`, { method: 'OPTIONS' });
    expect(options.status).toBe(204);
    expect(options.headers.allow).toBe('POST');
  });

  it('still serves GET and HEAD', async () => {
    expect((await request(`${server.url}/ja`)).status).toBe(200);
    const head = await request(`${server.url}/ja`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('counts refused methods under bounded labels, and logs no error', async () => {
    const series = parseSeries(await scrape(server)).filter(
      (entry) => entry.name === 'http_server_request_duration_seconds_count' && entry.labels.status_code === '405',
    );
    const methods = new Set(series.map((entry) => entry.labels.method));
    expect([...methods].sort()).toEqual(['CONNECT', 'DELETE', 'GET', 'HEAD', 'PATCH', 'POST', 'PUT', 'TRACE', 'other']);
    const traces = series.filter((entry) => entry.labels.method === 'TRACE').reduce((sum, entry) => sum + entry.value, 0);
    expect(traces).toBeGreaterThanOrEqual(PATHS.length);
    expect(jsonLines(server).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});

describe('every answer says what its body is', () => {
  it('redirects carry a Content-Type: the locale 308, the root 307 by language (Next), the router hash 307', async () => {
    const localeRedirect = await request(`${server.url}/en`);
    expect(localeRedirect.status).toBe(308);
    expect(localeRedirect.headers['content-type']).toBe('text/plain; charset=utf-8');
    const byLanguage = await request(`${server.url}/`, { headers: { 'Accept-Language': 'ja' } });
    expect(byLanguage.status).toBe(307);
    expect(byLanguage.headers.location).toBe('/ja');
    expect(byLanguage.headers['content-type']).toBe('text/plain; charset=utf-8');
    const wrongHash = await request(`${server.url}/ja?_rsc=wrong`, { headers: { RSC: '1', 'Next-Router-Prefetch': '1' } });
    expect(wrongHash.status).toBe(307);
    expect(wrongHash.headers['content-type']).toBe('text/plain; charset=utf-8');
  });

  it('the metrics port answers anything but /metrics with a typed 404', async () => {
    for (const path of ['/', '/nope', '/metrics/x']) {
      const reply = await request(`${server.metricsUrl}${path}`);
      expect(reply.status, path).toBe(404);
      expect(reply.headers['content-type'], path).toBe('text/plain; charset=utf-8');
    }
  });
});
