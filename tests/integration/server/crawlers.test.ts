import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { logLine, request } from '../support/http';
import { copyOfBuild, startServer, type RunningServer } from '../support/server-process';

const SITE = 'https://meridian.example';
let plain: RunningServer;
let withSite: RunningServer;

beforeAll(async () => {
  // A copy of the test build as if SITE_URL had been set when it was made (the build writes its origin here).
  const entry = copyOfBuild();
  const infoFile = path.join(path.dirname(entry), 'build-info.json');
  writeFileSync(infoFile, JSON.stringify({ ...JSON.parse(readFileSync(infoFile, 'utf8')), siteUrl: SITE }));
  [plain, withSite] = await Promise.all([startServer(), startServer({}, { entry })]);
});

afterAll(async () => {
  await Promise.all([plain?.stop(), withSite?.stop()]);
});

describe('with a site URL', () => {
  it('serves /sitemap.xml: every page of every locale with its alternates and x-default, from the site URL, never the Host', async () => {
    const reply = await request(`${withSite.url}/sitemap.xml`, { headers: { Host: 'evil.example', 'X-Forwarded-Host': 'evil.example' } });

    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/xml; charset=utf-8');
    expect(reply.body).not.toContain('evil.example');
    const locs = [...reply.body.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locs).toEqual([`${SITE}/`, `${SITE}/zh-CN`, `${SITE}/ja`]);
    for (const hreflang of ['en', 'zh-CN', 'ja', 'x-default']) {
      expect(reply.body.match(new RegExp(`hreflang="${hreflang}" href="${SITE}/`, 'g'))).toHaveLength(3);
    }
  });

  it('names it in robots.txt', async () => {
    const reply = await request(`${withSite.url}/robots.txt`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/plain/);
    expect(reply.body).toContain(`Sitemap: ${SITE}/sitemap.xml`);
  });
});

describe('without a site URL', () => {
  it('has no sitemap, robots.txt names none, and start-up says so once', async () => {
    expect((await request(`${plain.url}/sitemap.xml`)).status).toBe(404);
    const robots = await request(`${plain.url}/robots.txt`);
    expect(robots.status).toBe(200);
    expect(robots.body).toBe('User-agent: *\nAllow: /\n');
    await logLine(plain, (line) => line.msg === 'Meridian ready');
    expect(plain.lines().filter((line) => line.includes('Sitemap off'))).toHaveLength(1);
    expect(withSite.lines().filter((line) => line.includes('Sitemap off'))).toHaveLength(0);
  });
});

describe('other files crawlers and browsers ask for', () => {
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
