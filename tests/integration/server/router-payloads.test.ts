import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SITE_ORIGIN } from '../../../src/shared/site-origin.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { startNextServer, type RunningNext } from '../support/next-server';
import { ANSWER_MODES } from '../support/answer-modes';
import { serverPerFile } from '../support/server-process';

/**
 * Router requests of the prerendered pages (navigations, prefetches, segment
 * prefetches) are answered from memory: each is sent to our entry and to Next's
 * own server.js on the same build, and the answers must agree (status, every
 * header Next sends, the decoded body). Ours differ where the docs say: our
 * security headers, brotli when the client takes it (Next only gzips: the proof
 * Next did not answer), and the root's Vary by language.
 */
const requireFromBuild = createRequire(path.join(ROOT, '.next', 'standalone', 'server.js'));
const { computeCacheBustingSearchParam } = requireFromBuild('next/dist/shared/lib/router/utils/cache-busting-search-param.js') as {
  computeCacheBustingSearchParam: (...headers: (string | undefined)[]) => Promise<string>;
};
/** What either server adds of its own, or what framing decides. */
const NOT_COMPARED = new Set([
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'content-length',
  'content-encoding',
  'x-request-id',
  'content-security-policy',
  'permissions-policy',
  'referrer-policy',
  'x-content-type-options',
  'x-frame-options',
]);
const PAGES = [
  { path: '/', route: 'en' },
  { path: '/ja', route: 'ja' },
  { path: '/zh-CN', route: 'zh-CN' },
];
const BUILD_ID = JSON.parse(readFileSync(path.join(ROOT, '.next', 'standalone', 'build-info.json'), 'utf8')).buildId as string;

function segmentsOf(route: string): string[] {
  const meta = JSON.parse(readFileSync(path.join(ROOT, '.next', 'server', 'app', `${route}.meta`), 'utf8')) as { segmentPaths: string[] };
  return meta.segmentPaths;
}

/** A page's router state as Next's router sends it (`prepareFlightRouterStateForRequest`), which Next's own parser reads. */
function stateTree(locale: string): string {
  return encodeURIComponent(JSON.stringify(['', { children: [['locale', locale, 'd', null], { children: ['__PAGE__', {}] }] }]));
}

type RouterHeaders = Record<string, string>;

async function withHash(pathname: string, headers: RouterHeaders): Promise<string> {
  const hash = await computeCacheBustingSearchParam(
    headers['next-router-prefetch'],
    headers['next-router-segment-prefetch'],
    headers['next-router-state-tree'],
    headers['next-url'],
  );
  return `${pathname}?_rsc=${hash}`;
}

interface Answer {
  status: number;
  headers: Record<string, string>;
  encoding: string | null;
  body: string;
}

async function ask(base: string, target: string, headers: RouterHeaders, method = 'GET'): Promise<Answer> {
  const response = await fetch(base + target, { headers, method, redirect: 'manual' });
  const body = await response.text();
  const compared = Object.fromEntries([...response.headers].filter(([name]) => !NOT_COMPARED.has(name)));
  return { status: response.status, headers: compared, encoding: response.headers.get('content-encoding'), body };
}

/**
 * Next's own server.js sends the build's stand-in origin (src/shared/site-origin.mjs), which
 * ours swaps for SITE_URL's: unset here, so the links are relative.
 */
async function askNext(target: string, headers: RouterHeaders, method = 'GET'): Promise<Answer> {
  const answer = await ask(next.url, target, headers, method);
  return { ...answer, body: answer.body.replaceAll(BUILT_SITE_ORIGIN, '') };
}

/** Next's answer as ours should be: the root keeps its Vary by language. */
function expectedOf(pathname: string, next: Answer): Answer {
  // Where we differ on purpose: a redirect says its (empty) body is plain text, and the root keeps its Vary.
  const typed =
    next.status === 307 && next.headers['content-type'] === undefined
      ? { ...next, headers: { ...next.headers, 'content-type': 'text/plain; charset=utf-8' } }
      : next;
  if (pathname !== '/' || !typed.headers.vary || typed.headers.vary.endsWith('Cookie, Accept-Language')) return typed;
  return { ...typed, headers: { ...typed.headers, vary: `${typed.headers.vary}, Cookie, Accept-Language` } };
}

let next: RunningNext;

beforeAll(async () => {
  next = await startNextServer();
});

afterAll(async () => {
  await next?.stop();
});

describe.each(ANSWER_MODES)('router payloads of prerendered pages ($mode)', ({ env, fromMemory }) => {
  const ours = serverPerFile(env);
  const kinds: [string, (locale: string) => RouterHeaders][] = [
    ['a navigation', (locale) => ({ rsc: '1', 'next-router-state-tree': stateTree(locale), 'next-url': '/ja' })],
    ['a navigation without Next-Url', (locale) => ({ rsc: '1', 'next-router-state-tree': stateTree(locale) })],
    ['a full prefetch', () => ({ rsc: '1', 'next-router-prefetch': '1' })],
    ['RSC alone', () => ({ rsc: '1' })],
    ['a segment the page lacks', () => ({ rsc: '1', 'next-router-prefetch': '1', 'next-router-segment-prefetch': '/nope' })],
  ];
  const cases = PAGES.flatMap(({ path: pathname, route }) => [
    ...kinds.map(([kind, headersOf]) => ({ pathname, kind, headers: headersOf(route) })),
    ...segmentsOf(route).map((segment) => ({
      pathname,
      kind: `the segment ${segment}`,
      headers: { rsc: '1', 'next-router-prefetch': '1', 'next-router-segment-prefetch': segment, 'next-url': '/ja' },
    })),
  ]);

  it.each(cases)('$pathname, $kind: as Next answers it', async ({ pathname, headers }) => {
    const target = await withHash(pathname, headers);
    for (const acceptEncoding of ['gzip, deflate, br', 'gzip', 'identity']) {
      const sent = { ...headers, 'accept-encoding': acceptEncoding, 'x-deployment-id': BUILD_ID };
      const [mine, nexts] = await Promise.all([ask(ours.url, target, sent), askNext(target, sent)]);
      const { encoding: nextEncoding, ...expected } = expectedOf(pathname, nexts);
      const { encoding, ...actual } = mine;
      expect(actual, `${pathname} ${acceptEncoding}`).toEqual(expected);
      if (fromMemory && nexts.status === 200 && acceptEncoding === 'gzip, deflate, br') {
        expect(nextEncoding).toBe('gzip');
        expect(encoding).toBe('br');
      } else {
        expect(encoding).toBe(nextEncoding);
      }
    }
  });

  it('answers a payload for another build with this build’s id, as Next does: that tab then loads the page in full', async () => {
    const headers = { rsc: '1', 'next-router-state-tree': stateTree('ja'), 'x-deployment-id': 'some-other-build' };
    const target = await withHash('/ja', headers);
    const [mine, nexts] = await Promise.all([ask(ours.url, target, headers), askNext(target, headers)]);
    expect(mine.status).toBe(200);
    expect(mine.headers['x-nextjs-deployment-id']).toBe(BUILD_ID);
    expect(mine).toEqual({ ...nexts, encoding: mine.encoding });
  });

  it.each([
    ['/ja?_rsc=wrong&a=1', 'a wrong hash'],
    ['/ja', 'no hash'],
    ['/ja?a=%20b', 'no hash but a query'],
    ['/zh-CN?_rsc=RIGHT&_rsc=zz', 'the hash twice'],
    ['/?_rsc=wrong', 'a wrong hash at the root'],
  ])('%s (%s): the same 307 to the right hash as Next', async (target) => {
    const headers = { rsc: '1', 'next-router-prefetch': '1', 'next-router-segment-prefetch': '/_tree' };
    const right = (await withHash('/', headers)).split('=')[1] ?? '';
    const sent = target.replace('RIGHT', right);
    const [mine, nexts] = await Promise.all([ask(ours.url, sent, headers), askNext(sent, headers)]);
    expect(mine.status).toBe(307);
    expect(mine).toEqual(expectedOf(target.split('?')[0] ?? '', nexts));
  });

  it('checks the hash of headers it has seen before as strictly as the first time', async () => {
    const headers = { rsc: '1', 'next-router-state-tree': stateTree('zh-CN'), 'next-url': '/zh-CN' };
    const right = await withHash('/zh-CN', headers);
    for (let time = 0; time < 3; time += 1) {
      expect((await ask(ours.url, right, headers)).status).toBe(200);
      const wrong = await ask(ours.url, `${right}x`, headers);
      expect(wrong.status).toBe(307);
      expect(wrong.headers.location).toBe(right);
    }
  });

  it('answers HEAD with the headers of the GET and no body', async () => {
    const headers = { rsc: '1', 'next-router-prefetch': '1', 'next-router-segment-prefetch': '/_tree', 'accept-encoding': 'gzip' };
    const target = await withHash('/ja', headers);
    const [head, get] = await Promise.all([ask(ours.url, target, headers, 'HEAD'), ask(ours.url, target, headers)]);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers).toEqual(get.headers);
    expect(head.encoding).toBe(get.encoding);
  });
});
