import type { IncomingHttpHeaders } from 'node:http';
import { beforeAll, describe, expect, it } from 'vitest';
import { buildScriptOf, request } from '../support/http';
import { serverPerFile } from '../support/server-process';

// RFC 9110 §15.4.5 and §15.3.7: a 304 and a 206 carry the headers the 200 would (Cache-Control,
// ETag, Last-Modified, Vary), on every file and page the server answers.

const server = serverPerFile();
let script: string;

beforeAll(async () => {
  script = await buildScriptOf(server);
});

const KEPT = ['cache-control', 'etag', 'last-modified', 'vary'] as const;
const kept = (headers: IncomingHttpHeaders) => Object.fromEntries(KEPT.map((name) => [name, headers[name]]));

/** A build script in each coding, a public file Next used to serve, the build and crawler files, a page. */
const TARGETS = (): [string, Record<string, string>][] => [
  [script, { 'Accept-Encoding': 'br' }],
  [script, { 'Accept-Encoding': 'gzip' }],
  [script, { 'Accept-Encoding': 'identity' }],
  ['/favicon.ico', { 'Accept-Encoding': 'gzip, br' }],
  ['/favicon.svg', {}],
  ['/builds/latest.json', {}],
  ['/robots.txt', {}],
  ['/ja', { 'Accept-Encoding': 'br' }],
];

describe('a 304', () => {
  it('keeps the validators and caching headers of the 200, If-None-Match: * included', async () => {
    for (const [path, headers] of TARGETS()) {
      const full = await request(`${server.url}${path}`, { headers });
      expect(full.status, path).toBe(200);
      expect(full.headers.etag, path).toMatch(/^"[^"]+"$/);
      expect(Date.parse(String(full.headers['last-modified'])), path).toBeGreaterThan(0);
      for (const condition of [{ 'If-None-Match': String(full.headers.etag) }, { 'If-None-Match': '*' }]) {
        const notModified = await request(`${server.url}${path}`, { headers: { ...headers, ...condition } });
        expect(notModified.status, `${path} ${JSON.stringify(condition)}`).toBe(304);
        expect(kept(notModified.headers), `${path} ${JSON.stringify(condition)}`).toEqual(kept(full.headers));
      }
    }
  });

  it('answers If-Modified-Since on every file', async () => {
    for (const [path, headers] of TARGETS()) {
      const full = await request(`${server.url}${path}`, { headers });
      const since = await request(`${server.url}${path}`, {
        headers: { ...headers, 'If-Modified-Since': String(full.headers['last-modified']) },
      });
      expect(since.status, path).toBe(304);
    }
  });
});

describe('the brotli copy of a chunk', () => {
  it('has its own ETag and the Last-Modified of the others', async () => {
    const tags = new Set<string>();
    const dates = new Set<string>();
    for (const coding of ['br', 'gzip', 'identity']) {
      const reply = await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': coding } });
      expect(reply.headers['content-encoding'] ?? 'identity').toBe(coding);
      tags.add(String(reply.headers.etag));
      dates.add(String(reply.headers['last-modified']));
    }
    expect(tags.size).toBe(3);
    expect(dates.size).toBe(1);
  });
});

describe('a 206', () => {
  it('keeps the headers of the 200 of the file as it is', async () => {
    for (const path of [script, '/favicon.ico', '/builds/latest.json']) {
      const whole = await request(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'identity' } });
      const part = await request(`${server.url}${path}`, { headers: { 'Accept-Encoding': 'br, gzip', Range: 'bytes=0-9' } });
      expect(part.status, path).toBe(206);
      expect(part.headers['content-encoding'], path).toBeUndefined();
      expect(part.headers['content-range'], path).toMatch(/^bytes 0-9\/\d+$/);
      expect(part.headers['accept-ranges'], path).toBe('bytes');
      expect(kept(part.headers), path).toEqual(kept(whole.headers));
    }
  });

  it('answers If-Range: the part when the tag or date still matches, the whole file otherwise', async () => {
    const whole = await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'identity' } });
    const range = { 'Accept-Encoding': 'identity', Range: 'bytes=0-9' };
    expect((await request(`${server.url}${script}`, { headers: { ...range, 'If-Range': String(whole.headers.etag) } })).status).toBe(206);
    expect(
      (await request(`${server.url}${script}`, { headers: { ...range, 'If-Range': String(whole.headers['last-modified']) } })).status,
    ).toBe(206);
    const stale = await request(`${server.url}${script}`, { headers: { ...range, 'If-Range': '"stale"' } });
    expect(stale.status).toBe(200);
    expect(stale.body).toBe(whole.body);
    expect(stale.headers.etag).toBe(whole.headers.etag);
  });

  it('gives way to a matching If-None-Match: 304', async () => {
    const whole = await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'identity' } });
    const reply = await request(`${server.url}${script}`, {
      headers: { 'Accept-Encoding': 'identity', Range: 'bytes=0-9', 'If-None-Match': String(whole.headers.etag) },
    });
    expect(reply.status).toBe(304);
  });
});

describe('Accept-Ranges', () => {
  it('is sent only where ranges are served', async () => {
    for (const path of [script, '/favicon.ico', '/favicon.svg', '/robots.txt']) {
      const reply = await request(`${server.url}${path}`);
      expect(reply.headers['accept-ranges'], path).toBe('bytes');
      expect((await request(`${server.url}${path}`, { headers: { Range: 'bytes=0-0' } })).status, path).toBe(206);
    }
    for (const path of ['/ja', '/ja/no-such-page', '/ja/no-such-page?x=1', '/api/x', '/healthz']) {
      const reply = await request(`${server.url}${path}`);
      expect(reply.headers['accept-ranges'], path).toBeUndefined();
      expect((await request(`${server.url}${path}`, { headers: { Range: 'bytes=0-0' } })).status, path).not.toBe(206);
    }
  });
});
