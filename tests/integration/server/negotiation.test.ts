import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

// RFC 9110 negotiation and conditional requests on the pages and assets our entry serves itself.

let server: RunningServer;
let script: string;

beforeAll(async () => {
  server = await startServer();
  const html = (await request(`${server.url}/ja`)).body;
  script = /\/_next\/static\/chunks\/[^"?]+\.js/.exec(html)?.[0] ?? '';
  expect(script).not.toBe('');
});

afterAll(async () => {
  await server?.stop();
});

const ROUTER_VARY = 'rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch';

describe('Accept-Encoding on a prerendered page', () => {
  it.each([
    ['br;q=0, gzip', 'gzip'],
    ['gzip, deflate, br', 'br'],
    ['*', 'br'],
    ['gzip;q=1.0, identity; q=0.5, *;q=0', 'gzip'],
    ['br;q=0.1, gzip;q=0.9', 'gzip'],
    ['deflate', undefined],
    ['', undefined],
    // x-gzip is gzip (RFC 9110 §8.4.1.3).
    ['x-gzip', 'gzip'],
    ['x-gzip, identity;q=0', 'gzip'],
  ])('"%s" gets %s', async (acceptEncoding, coding) => {
    const reply = await request(`${server.url}/ja`, { headers: { 'Accept-Encoding': acceptEncoding } });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-encoding']).toBe(coding);
  });

  it.each(['identity;q=0', '*;q=0', 'identity;q=0, *;q=0'])('"%s" (nothing acceptable) gets 406, never a 5xx', async (acceptEncoding) => {
    const reply = await request(`${server.url}/ja`, { headers: { 'Accept-Encoding': acceptEncoding } });
    expect(reply.status).toBe(406);
    expect(reply.body).not.toContain('<html');
  });
});

describe('conditional requests on a prerendered page', () => {
  let etag: string;
  let lastModified: string;

  beforeAll(async () => {
    const reply = await request(`${server.url}/ja`);
    etag = String(reply.headers.etag);
    lastModified = String(reply.headers['last-modified']);
    expect(etag).toMatch(/^"[^"]+"$/);
    expect(Date.parse(lastModified)).toBeGreaterThan(0);
  });

  const conditional = async (headers: Record<string, string>) => (await request(`${server.url}/ja`, { headers })).status;

  it('answers 304 to If-None-Match with the tag in a list, weak, or *', async () => {
    expect(await conditional({ 'If-None-Match': etag })).toBe(304);
    expect(await conditional({ 'If-None-Match': `"r2d2xxxx", ${etag}` })).toBe(304);
    expect(await conditional({ 'If-None-Match': `W/${etag}` })).toBe(304);
    expect(await conditional({ 'If-None-Match': `"a", W/${etag}, "b"` })).toBe(304);
    expect(await conditional({ 'If-None-Match': '*' })).toBe(304);
  });

  it('answers 200 to other tags, and keeps the validators on a 304', async () => {
    expect(await conditional({ 'If-None-Match': '"r2d2xxxx", "c3piozzzz"' })).toBe(200);
    expect(await conditional({ 'If-None-Match': etag.slice(1, -1) })).toBe(200);
    const notModified = await request(`${server.url}/ja`, { headers: { 'If-None-Match': etag } });
    expect(notModified.headers.etag).toBe(etag);
    expect(notModified.body).toBe('');
  });

  it('gives each coding its own strong tag, and a tag matches only the coding it names (RFC 9110 §8.8.3)', async () => {
    const tagOf = async (coding: string) =>
      String((await request(`${server.url}/ja`, { headers: { 'Accept-Encoding': coding } })).headers.etag);
    const tags = { identity: etag, gzip: await tagOf('gzip'), br: await tagOf('br') };
    expect(new Set(Object.values(tags)).size).toBe(3);
    for (const tag of Object.values(tags)) expect(tag).toMatch(/^"[^"]+"$/);
    const status = async (coding: string, tag: string) =>
      (await request(`${server.url}/ja`, { headers: { 'Accept-Encoding': coding, 'If-None-Match': tag } })).status;
    expect(await status('br', tags.br)).toBe(304);
    expect(await status('gzip', tags.gzip)).toBe(304);
    expect(await status('gzip', tags.br)).toBe(200);
    expect(await status('br', tags.identity)).toBe(200);
    // A cache holding two variants may send both: the selected one's tag decides, and the 304 names it.
    const both = await request(`${server.url}/ja`, { headers: { 'Accept-Encoding': 'br', 'If-None-Match': `${tags.gzip}, ${tags.br}` } });
    expect(both.status).toBe(304);
    expect(both.headers.etag).toBe(tags.br);
  });

  it('answers If-Modified-Since, and ignores it beside If-None-Match', async () => {
    expect(await conditional({ 'If-Modified-Since': lastModified })).toBe(304);
    expect(await conditional({ 'If-Modified-Since': new Date(Date.parse(lastModified) + 86_400_000).toUTCString() })).toBe(304);
    expect(await conditional({ 'If-Modified-Since': new Date(Date.parse(lastModified) - 86_400_000).toUTCString() })).toBe(200);
    expect(await conditional({ 'If-Modified-Since': 'not a date' })).toBe(200);
    expect(await conditional({ 'If-None-Match': '"other"', 'If-Modified-Since': lastModified })).toBe(200);
  });

  it('evaluates the conditions whatever the request’s Cache-Control: a true If-None-Match with no-cache is still a 304', async () => {
    expect(await conditional({ 'If-None-Match': etag, 'Cache-Control': 'no-cache' })).toBe(304);
    expect(await conditional({ 'If-None-Match': etag, 'Cache-Control': 'no-cache', Pragma: 'no-cache' })).toBe(304);
    expect(await conditional({ 'If-Modified-Since': lastModified, 'Cache-Control': 'max-age=0' })).toBe(304);
  });

  it('answers 412 to a false If-Match or If-Unmodified-Since, and the page to a true one', async () => {
    expect(await conditional({ 'If-Match': '"nope"' })).toBe(412);
    expect(await conditional({ 'If-Match': `W/${etag}` })).toBe(412);
    expect(await conditional({ 'If-Unmodified-Since': new Date(Date.parse(lastModified) - 86_400_000).toUTCString() })).toBe(412);
    expect(await conditional({ 'If-Match': etag })).toBe(200);
    expect(await conditional({ 'If-Match': '*' })).toBe(200);
    expect(await conditional({ 'If-Unmodified-Since': lastModified })).toBe(200);
    expect(await conditional({ 'If-Unmodified-Since': 'not a date' })).toBe(200);
    const failed = await request(`${server.url}/ja`, { headers: { 'If-Match': '"nope"' } });
    expect(failed.headers['content-type']).toBe('text/plain; charset=utf-8');
    expect(failed.body).toBe('Precondition Failed\n');
  });
});

describe('conditional requests on a build chunk', () => {
  it('a true If-None-Match with no-cache is a 304; a false If-Match or past If-Unmodified-Since a 412', async () => {
    const full = await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'br' } });
    const etag = String(full.headers.etag);
    const lastModified = String(full.headers['last-modified']);
    const status = async (headers: Record<string, string>) =>
      (await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'br', ...headers } })).status;
    expect(await status({ 'If-None-Match': etag, 'Cache-Control': 'no-cache' })).toBe(304);
    expect(await status({ 'If-Match': '"nope"' })).toBe(412);
    expect(await status({ 'If-Unmodified-Since': new Date(Date.parse(lastModified) - 86_400_000).toUTCString() })).toBe(412);
    expect(await status({ 'If-Match': etag })).toBe(200);
  });

  it('reads x-gzip as gzip', async () => {
    const reply = await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'x-gzip' } });
    expect(reply.headers['content-encoding']).toBe('gzip');
  });
});

describe('build assets', () => {
  it('sends the brotli copy only when br is acceptable', async () => {
    expect((await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'br' } })).headers['content-encoding']).toBe('br');
    expect(
      (await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'br;q=0, gzip' } })).headers['content-encoding'],
    ).not.toBe('br');
  });

  it('answers Range with 206 or 416 on the file as it is (Next answered 500 past the end)', async () => {
    const whole = await request(`${server.url}${script}`);
    const part = await request(`${server.url}${script}`, { headers: { Range: 'bytes=0-9', 'Accept-Encoding': 'br' } });
    expect(part.status).toBe(206);
    expect(part.headers['content-range']).toMatch(/^bytes 0-9\/\d+$/);
    expect(part.body).toBe(whole.body.slice(0, 10));
    const beyond = await request(`${server.url}${script}`, { headers: { Range: 'bytes=999999999-', 'Accept-Encoding': 'br' } });
    expect(beyond.status).toBe(416);
    expect(beyond.headers['content-range']).toBe(`bytes */${Buffer.byteLength(whole.body)}`);
    // Malformed or several ranges: the whole file (Range may always be ignored).
    for (const range of ['bytes=abc', 'bytes=0-1,5-6', 'pages=1-2']) {
      const full = await request(`${server.url}${script}`, { headers: { Range: range } });
      expect(full.status, range).toBe(200);
      expect(full.body, range).toBe(whole.body);
    }
  });
});

describe('If-None-Match: * on the files our entry serves from memory (RFC 9110 §13.1.2)', () => {
  it('answers 304 where the file exists, and the file or its 404 otherwise', async () => {
    const anyTag = (path: string, headers: Record<string, string> = {}) =>
      request(`${server.url}${path}`, { headers: { 'If-None-Match': '*', ...headers } });
    for (const [path, headers] of [
      ['/builds/latest.json', {}],
      ['/robots.txt', {}],
      [script, { 'Accept-Encoding': 'br' }],
      [script, { Range: 'bytes=0-9' }],
    ] as const) {
      const reply = await anyTag(path, headers);
      expect(reply.status, `${path} ${JSON.stringify(headers)}`).toBe(304);
      expect(reply.body).toBe('');
    }
    expect((await anyTag('/builds/meta/no-such-build.json')).status).toBe(404);
    expect((await anyTag('/_next/static/chunks/no-such-chunk.js')).status).toBe(404);
  });
});

describe('Vary names exactly what each answer depends on', () => {
  it.each([
    ['/ja', {}, `${ROUTER_VARY}, Accept-Encoding`],
    ['/zh-CN', { 'Accept-Encoding': 'gzip' }, `${ROUTER_VARY}, Accept-Encoding`],
    ['/', { 'Accept-Language': 'en' }, `${ROUTER_VARY}, Accept-Encoding, Cookie, Accept-Language`],
    // The redirect to /ja is Next's proxy's answer: it depends on the language only.
    ['/', { 'Accept-Language': 'ja' }, 'Cookie, Accept-Language'],
    ['/ja/no/such/page', {}, ROUTER_VARY],
  ])('%s %j: %s', async (path, headers, vary) => {
    const reply = await request(`${server.url}${path}`, { headers: { Accept: 'text/html', ...headers } });
    expect(reply.headers.vary).toBe(vary);
  });

  it('a brotli asset: Accept-Encoding', async () => {
    expect((await request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'br' } })).headers.vary).toBe('Accept-Encoding');
  });
});
