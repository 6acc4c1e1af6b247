import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LOCALES, localizedPath } from '@/shared/locales';
import { logLine, request } from '../support/http';
import { startNextServer, type RunningNext } from '../support/next-server';
import { startServer, type RunningServer } from '../support/server-process';

/**
 * Our entry answers not-found page loads from a template it had Next render at
 * start-up. Next's own server.js, on the same build, renders every one: the two
 * must send the same page, in every locale: the proof that the template's
 * splicing (src/server/serving/not-found/not-found-template.ts) is right.
 * Payload rows may stream in any order, so they are compared as sets.
 */
function comparable(html: string): { markup: string; payloadRows: string[] } {
  const payload: string[] = [];
  const markup = html.replace(/<script>self\.__next_f\.push\(\[1,"(.*?)"\]\)<\/script>/g, (_, chunk: string) => {
    payload.push(chunk);
    return '';
  });
  return { markup, payloadRows: payload.join('').split('\\n').sort() };
}

/** The page with its path, and each segment of it in the router payload, replaced by markers. */
function withPathMarked(html: string, pathname: string): string {
  const segments = pathname.split('/').filter(Boolean);
  return segments.reduce(
    (text, segment, index) => text.replaceAll(`\\"${segment}\\"`, `\\"segment-${index}\\"`),
    html.replaceAll(pathname, '/marked'),
  );
}

let ours: RunningServer;
let next: RunningNext;
let nextUrl: string;

beforeAll(async () => {
  ours = await startServer();
  next = await startNextServer();
  nextUrl = next.url;
});

afterAll(async () => {
  next?.stop();
  await ours?.stop();
});

describe('not-found pages from a template', () => {
  it('has a template for every locale', async () => {
    const ready = await logLine(ours, (line) => line.msg === 'Meridian ready');
    expect(ready.not_found_templates).toEqual(['en', 'zh-CN', 'ja']);
  });

  it.each([
    '/nope',
    '/a/b/c/d',
    '/ja/nope',
    '/zh-CN/nope/deeper',
    "/zh-CN/a&b'c:d@e;f=g",
    '/ja/%E6%97%A5%E6%9C%AC%E8%AA%9E',
    '/%3Cscript%3Ealert(1)%3C/script%3E',
    '/ja/x%22y%27z%3E',
    '/%E2%80%A8%E2%80%A9',
    '/%zz-malformed',
    `/${'long'.repeat(80)}`,
    '/ja/e2e-fixtures',
    '/wp-admin/install.php%00',
    '/nope?x=1',
    "/ja/nope/deeper?a=1&b=%20c&d=e:f@g!h$i'j(k)l*m+n,o;p/q?r",
    '/zh-CN/nope?q=%E4%B8%AD',
    '/nope?',
    `/nope?q=${'x'.repeat(900)}`,
    '/nope?b=2&a=1&b=3&2=x&c',
    ...LOCALES.map((locale) => localizedPath(locale, '/every-locale/spliced')),
  ])('%s: the same page as Next renders', async (pathname) => {
    const headers = { 'accept-encoding': 'identity' };
    const [fromTemplate, rendered] = await Promise.all([
      request(`${ours.url}${pathname}`, { headers }),
      request(`${nextUrl}${pathname}`, { headers }),
    ]);
    expect(fromTemplate.status).toBe(404);
    expect(rendered.status).toBe(404);
    expect(fromTemplate.headers['content-type']).toBe(rendered.headers['content-type']);
    expect(fromTemplate.headers['cache-control']).toBe(rendered.headers['cache-control']);
    expect(comparable(fromTemplate.body)).toEqual(comparable(rendered.body));
  });

  it.each(['/api/some-endpoint', '/api/deeper/still-further', '/_next/unknown-thing', '/_next/img-unknown', '/_next/data/some-build'])(
    '%s, a path the locale rules pass by: the English not-found page naming it, from memory',
    async (pathname) => {
      // A path of the same shape that is an ordinary English 404 (compared with Next's above).
      const ordinary = pathname
        .split('/')
        .map((segment, index) => String.fromCharCode(111 + index).repeat(segment.length))
        .join('/');
      const headers = { 'accept-encoding': 'identity' };
      const [passed, plain, rendered] = await Promise.all([
        request(`${ours.url}${pathname}`, { headers }),
        request(`${ours.url}${ordinary}`, { headers }),
        request(`${nextUrl}${pathname}`, { headers }),
      ]);
      expect(passed.status).toBe(404);
      expect(passed.body).toContain(`Page not found: ${pathname}`);
      expect(withPathMarked(passed.body, pathname)).toBe(withPathMarked(plain.body, ordinary));
      expect(passed.headers['cache-control']).toBe(rendered.headers['cache-control']);
      expect(passed.headers['content-type']).toBe(rendered.headers['content-type']);
      // Next streams the page it renders; the template is sent whole.
      expect(rendered.headers['content-length']).toBeUndefined();
      expect(Number(passed.headers['content-length'])).toBe(Buffer.byteLength(passed.body));
    },
  );

  it('/_next/image with its query: the English not-found page, from memory, its payload carrying the query as Next writes it', async () => {
    const reply = await request(`${ours.url}/_next/image?url=%2Fa.png&w=640&q=75`, { headers: { 'accept-encoding': 'identity' } });
    expect(reply.status).toBe(404);
    expect(reply.body).toContain('Page not found: /_next/image');
    expect(reply.body).toContain('\\"image?url=%2Fa.png\\u0026w=640\\u0026q=75\\"],\\"q\\":\\"?url=%2Fa.png\\u0026w=640\\u0026q=75\\"');
    expect(Number(reply.headers['content-length'])).toBe(Buffer.byteLength(reply.body));
  });

  it.each(['/x.php', '/wp-login.php', '/api/x.php', '/_next/data/build/x.json', '/ja/x.env', '/.git/config.bak'])(
    '%s, a file the site lacks: the plain 404 of the rewrite in next.config.js, from memory',
    async (pathname) => {
      for (const [method, routerHeaders] of [
        ['GET', {}],
        ['HEAD', {}],
        ['GET', { rsc: '1' }],
        ['GET', { rsc: '1', 'next-router-prefetch': '1' }],
      ] as const) {
        let target = pathname;
        let [mine, nexts] = await Promise.all([
          request(`${ours.url}${target}`, { method, headers: routerHeaders }),
          request(`${nextUrl}${target}`, { method, headers: routerHeaders }),
        ]);
        if ('rsc' in routerHeaders) {
          // A router request without its `_rsc` hash is first sent to the URL with it, by both.
          expect(mine.status).toBe(307);
          expect(mine.headers.location).toBe(nexts.headers.location);
          target = mine.headers.location ?? '';
          [mine, nexts] = await Promise.all([
            request(`${ours.url}${target}`, { method, headers: routerHeaders }),
            request(`${nextUrl}${target}`, { method, headers: routerHeaders }),
          ]);
        }
        expect(mine.status, `${method} ${target}`).toBe(404);
        expect(nexts.status).toBe(404);
        expect(mine.body).toBe(nexts.body);
        for (const name of ['content-type', 'cache-control', 'vary']) expect(mine.headers[name], name).toBe(nexts.headers[name]);
        // Next answers through its route handler, streamed; ours is written whole.
        expect(nexts.headers['content-length']).toBeUndefined();
        expect(mine.headers['content-length']).toBe('10');
      }
    },
  );

  it.each([
    ['a 4 KiB query', `?q=${'x'.repeat(4096)}`],
    ['a query past 1,000 characters in a locale', `?${'a=1&'.repeat(300)}`],
    ['a query of other characters than a URL’s', '?q="<x>"&r={}'],
  ])('%s: from memory, the page Next renders for the path alone (the query left out of its payload)', async (_, query) => {
    for (const pathname of ['/nope', '/ja/nope/deeper']) {
      const headers = { 'accept-encoding': 'identity' };
      const [fromTemplate, rendered] = await Promise.all([
        request(`${ours.url}${pathname}${query}`, { headers }),
        request(`${nextUrl}${pathname}`, { headers }),
      ]);
      expect(fromTemplate.status, pathname).toBe(404);
      expect(comparable(fromTemplate.body), pathname).toEqual(comparable(rendered.body));
      // Sent whole, as only the template is: Next streams what it renders.
      expect(Number(fromTemplate.headers['content-length']), pathname).toBe(Buffer.byteLength(fromTemplate.body));
    }
  });

  it('answers HEAD with the headers only', async () => {
    const reply = await request(`${ours.url}/ja/nope`, { method: 'HEAD' });
    expect(reply.status).toBe(404);
    expect(Number(reply.headers['content-length'])).toBeGreaterThan(1000);
    expect(reply.body).toBe('');
  });
});
