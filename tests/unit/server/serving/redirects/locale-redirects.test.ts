import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { NextRequest } from 'next/server';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { localeProxy } from '@/i18n/proxy';
import { answerLocaleRedirect, localeRedirectOf } from '@/server/serving/redirects/locale-redirects';
import { routeOf } from '@/server/serving/routing/request-route';

const asRequest = (url: string, headers: Record<string, string> = {}, method = 'GET') =>
  ({ url, method, headers }) as unknown as IncomingMessage;

/** The redirect the server answers for this request, from its one routing decision. */
function redirectOf(url: string, headers: Record<string, string> = {}, method = 'GET') {
  const req = asRequest(url, headers, method);
  return localeRedirectOf(req, routeOf(req));
}

/** What the locale proxy itself answers: its status and its Location as a path. */
function proxyAnswer(path: string, headers: Record<string, string> = {}) {
  const response = localeProxy(new NextRequest(`http://localhost${path}`, { headers }));
  const location = response.headers.get('location');
  return { status: response.status, location: location === null ? null : new URL(location).pathname };
}

describe('localeRedirectOf: the proxy’s permanent redirects', () => {
  it.each([
    ['/en', '/'],
    ['/EN', '/'],
    ['/en/about', '/about'],
    ['/En/a/b-c_d~e', '/a/b-c_d~e'],
    ['/JA', '/ja'],
    ['/zh-cn', '/zh-CN'],
    ['/ZH-CN/x', '/zh-CN/x'],
  ])('%s goes to %s, as the proxy sends it', (path, location) => {
    expect(redirectOf(path)).toBe(location);
    expect(proxyAnswer(path)).toEqual({ status: 308, location });
  });

  it('decides the same whatever the language cookie or Accept-Language say', () => {
    const headers = { cookie: 'i18n_redirected=ja', 'accept-language': 'zh-CN' };
    expect(redirectOf('/en/x', headers)).toBe('/x');
    expect(proxyAnswer('/en/x', headers)).toEqual({ status: 308, location: '/x' });
  });

  it.each([
    ['a page', '/ja'],
    ['the root', '/'],
    ['a path the site does not have', '/nothing-here'],
    ['a trailing slash (Next redirects it first)', '/en/'],
    ['a doubled slash', '/en//evil.example'],
    ['a query', '/en?x=1'],
    ['an escape', '/en/%2e%2e'],
    ['a file', '/en/logo.png'],
    ['a backslash', '/en\\x'],
  ])('leaves %s to Next', (_, path) => {
    expect(redirectOf(path)).toBeNull();
  });

  it('leaves the root redirect by language (307, cookie, Vary) to Next', () => {
    expect(redirectOf('/', { 'accept-language': 'ja' })).toBeNull();
  });

  it.each([
    ['a router payload', { rsc: '1' }],
    ['a router prefetch', { 'next-router-prefetch': '1' }],
    ['a browser prefetch', { 'sec-purpose': 'prefetch' }],
    ['a subresource', { 'sec-fetch-dest': 'image' }],
    ['a data request', { 'x-nextjs-data': '1' }],
  ])('leaves %s to Next', (_, headers) => {
    expect(redirectOf('/en', headers)).toBeNull();
  });

  it.each(['POST', 'PUT', 'DELETE', 'OPTIONS'])('leaves %s to Next', (method) => {
    expect(redirectOf('/en', {}, method)).toBeNull();
  });
});

describe('answerLocaleRedirect', () => {
  let server: Server;
  let port = 0;
  let nextCalls: string[] = [];
  const next = async (req: IncomingMessage, res: ServerResponse) => {
    nextCalls.push(req.url ?? '');
    res.statusCode = 299;
    res.end('next');
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      if (!answerLocaleRedirect(req, res, routeOf(req))) void next(req, res);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));
  beforeEach(() => {
    nextCalls = [];
  });

  const get = (path: string, method = 'GET', headers: Record<string, string> = {}) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: string }>((resolve, reject) => {
      const req = request({ host: '127.0.0.1', port, path, method, headers }, (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      });
      req.on('error', reject);
      req.end();
    });

  it('answers /en/about as Next does: 308, Location, Refresh, the location as the body', async () => {
    const reply = await get('/en/about');
    expect(reply.status).toBe(308);
    expect(reply.headers.location).toBe('/about');
    expect(reply.headers.refresh).toBe('0;url=/about');
    expect(reply.body).toBe('/about');
    expect(nextCalls).toEqual([]);
  });

  it('answers a HEAD without a body', async () => {
    const reply = await get('/en', 'HEAD');
    expect(reply.status).toBe(308);
    expect(reply.headers.location).toBe('/');
    expect(reply.body).toBe('');
    expect(nextCalls).toEqual([]);
  });

  it('hands everything else to Next', async () => {
    for (const path of ['/ja', '/en?x=1', '/en/']) expect((await get(path)).status).toBe(299);
    expect((await get('/en', 'GET', { rsc: '1' })).status).toBe(299);
    expect(nextCalls).toEqual(['/ja', '/en?x=1', '/en/', '/en']);
  });
});
