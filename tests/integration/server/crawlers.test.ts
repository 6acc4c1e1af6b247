import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_SITE_ORIGIN } from '../../../src/shared/site-origin.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { ANSWER_MODES } from '../support/answer-modes';
import { logLine, request } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

// One build, as one image is promoted from staging to production: SITE_URL is read where it
// runs, and every link that names the site's origin names that one.
const SITES = { staging: 'https://staging.meridian.example', production: 'https://meridian.example:8443' } as const;
type Site = keyof typeof SITES;
const PAGES = [
  { path: '/', route: 'en' },
  { path: '/zh-CN', route: 'zh-CN' },
  { path: '/ja', route: 'ja' },
];
const ALTERNATES = { en: '/', 'zh-CN': '/zh-CN', ja: '/ja', 'x-default': '/' };
const STAND_IN_HOST = new URL(BUILT_SITE_ORIGIN).hostname;

/** The canonical and alternate links a page's head carries, by rel and hreflang. */
function headLinks(html: string): Record<string, string> {
  const links: Record<string, string> = {};
  for (const [tag] of html.matchAll(/<link rel="(?:canonical|alternate)"[^>]*>/g)) {
    const hreflang = /hrefLang="([^"]+)"/.exec(tag)?.[1];
    links[hreflang ?? 'canonical'] = /href="([^"]+)"/.exec(tag)?.[1] ?? '';
  }
  return links;
}

function expectedLinks(origin: string, pagePath: string): Record<string, string> {
  return {
    canonical: `${origin}${pagePath}`,
    ...Object.fromEntries(Object.entries(ALTERNATES).map(([lang, href]) => [lang, `${origin}${href}`])),
  };
}

/** The segments the router prefetches of a page, as the build lists them. */
function segmentsOf(route: string): string[] {
  const meta = JSON.parse(readFileSync(path.join(ROOT, '.next', 'server', 'app', `${route}.meta`), 'utf8')) as { segmentPaths: string[] };
  return meta.segmentPaths;
}

/** A router payload: fetch follows the server's 307 to the right `_rsc` hash with the same headers. */
async function routerPayload(url: string, headers: Record<string, string>): Promise<string> {
  const response = await fetch(url, { headers: { rsc: '1', ...headers } });
  expect(response.status, url).toBe(200);
  expect(response.headers.get('content-type')).toBe('text/x-component');
  return response.text();
}

/** The sha256 sources of a page's inline scripts, computed here from the bytes sent. */
function inlineScriptSources(html: string): string[] {
  return [...html.matchAll(/<script(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/g)]
    .map(([, body]) => body ?? '')
    .filter(Boolean)
    .map((body) => `'sha256-${createHash('sha256').update(body).digest('base64')}'`);
}

describe.each(ANSWER_MODES)('one build under two SITE_URLs ($mode)', ({ env }) => {
  const servers = {} as Record<Site, RunningServer>;

  beforeAll(async () => {
    const started = await Promise.all(
      (Object.keys(SITES) as Site[]).map((site) => startServer({ ...env, SITE_URL: `${SITES[site]}/ignored/path` })),
    );
    (Object.keys(SITES) as Site[]).forEach((site, index) => (servers[site] = started[index] as RunningServer));
  });

  afterAll(async () => {
    await Promise.all(Object.values(servers).map((server) => server.stop()));
  });

  describe.each(Object.keys(SITES) as Site[])('%s', (site) => {
    const origin = SITES[site];

    it.each(PAGES)(
      "links $path to the site's origin: canonical, every hreflang and x-default; its inline scripts are the ones its policy allows",
      async ({ path: pagePath }) => {
        const reply = await request(`${servers[site].url}${pagePath}`, { headers: { Accept: 'text/html' } });
        expect(reply.status).toBe(200);
        expect(headLinks(reply.body)).toEqual(expectedLinks(origin, pagePath));
        expect(reply.body).not.toContain(STAND_IN_HOST);
        const policy = String(reply.headers['content-security-policy']);
        for (const source of inlineScriptSources(reply.body)) expect(policy).toContain(source);
      },
    );

    it.each(PAGES)(
      "names the site's origin in $path's router payloads, whole and by segment, never the build's stand-in",
      async ({ path: pagePath, route }) => {
        const url = `${servers[site].url}${pagePath}`;
        const whole = await routerPayload(url, {});
        expect(whole).toContain(`"href":"${origin}${pagePath}"`);
        expect(whole).not.toContain(STAND_IN_HOST);
        const segments = await Promise.all(
          segmentsOf(route).map((segment) => routerPayload(url, { 'next-router-prefetch': '1', 'next-router-segment-prefetch': segment })),
        );
        expect(segments.join('\n')).toContain(`"href":"${origin}${pagePath}"`);
        expect(segments.join('\n')).not.toContain(STAND_IN_HOST);
      },
    );

    it("links a page that does not exist to the site's origin", async () => {
      const reply = await request(`${servers[site].url}/ja/no/such/page`, { headers: { Accept: 'text/html' } });
      expect(reply.status).toBe(404);
      expect(headLinks(reply.body).canonical).toBe(`${origin}/ja/no/such/page`);
    });

    it('serves /sitemap.xml: every page of every locale with its alternates and x-default, from the site URL, never the Host', async () => {
      const reply = await request(`${servers[site].url}/sitemap.xml`, {
        headers: { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' },
      });
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toBe('application/xml; charset=utf-8');
      expect(reply.body).not.toContain('evil.example');
      const locs = [...reply.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
      expect(locs).toEqual([`${origin}/`, `${origin}/zh-CN`, `${origin}/ja`]);
      for (const hreflang of ['en', 'zh-CN', 'ja', 'x-default']) {
        expect(reply.body.match(new RegExp(`hreflang="${hreflang}" href="${origin}/`, 'g'))).toHaveLength(3);
      }
    });

    it('names its sitemap in robots.txt', async () => {
      const reply = await request(`${servers[site].url}/robots.txt`);
      expect(reply.status).toBe(200);
      expect(reply.headers['content-type']).toMatch(/^text\/plain/);
      expect(reply.body).toBe(`User-agent: *\nAllow: /\n\nSitemap: ${origin}/sitemap.xml\n`);
    });
  });
});

describe.each(ANSWER_MODES)('without a site URL ($mode)', ({ env }) => {
  let plain: RunningServer;

  beforeAll(async () => {
    plain = await startServer(env);
  });

  afterAll(async () => {
    await plain?.stop();
  });

  it.each(PAGES)(
    'links $path relatively, in the page and its router payload, never to the build’s stand-in',
    async ({ path: pagePath }) => {
      const reply = await request(`${plain.url}${pagePath}`, { headers: { Accept: 'text/html' } });
      expect(headLinks(reply.body)).toEqual(expectedLinks('', pagePath));
      expect(reply.body).not.toContain(STAND_IN_HOST);
      const payload = await routerPayload(`${plain.url}${pagePath}`, {});
      expect(payload).toContain(`"href":"${pagePath}"`);
      expect(payload).not.toContain(STAND_IN_HOST);
    },
  );

  it('has no sitemap, robots.txt names none, and start-up says so once', async () => {
    expect((await request(`${plain.url}/sitemap.xml`)).status).toBe(404);
    const robots = await request(`${plain.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.body).toBe('User-agent: *\nAllow: /\n');
    await logLine(plain, (line) => line.msg === 'Meridian ready');
    expect(plain.lines().filter((line) => line.includes('Sitemap off'))).toHaveLength(1);
  });

  it('answers /favicon.ico with an icon', async () => {
    const reply = await request(`${plain.url}/favicon.ico`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^image\/(x-icon|vnd\.microsoft\.icon)/);
  });

  it.each([
    ['/no/such/page', 'Page Not Found'],
    ['/ja/no/such/page', 'ページが見つかりません'],
    ['/zh-CN/no/such/page', '页面未找到'],
    // A query skips the template: Next renders the page itself.
    ['/ja/no/such/page?x=1', 'ページが見つかりません'],
  ])('titles the 404 page %s "%s"', async (target, title) => {
    const reply = await request(`${plain.url}${target}`, { headers: { Accept: 'text/html' } });
    expect(reply.status).toBe(404);
    expect(reply.body).toContain(`<title>${title}</title>`);
  });
});
