import { describe, expect, it } from 'vitest';
import { parseSeries, request, scrape } from '../support/http';
import { serverPerFile } from '../support/server-process';

const server = serverPerFile({ BUILD_POLL_INTERVAL_MS: '1500' });

async function latest(): Promise<{ id: string; timestamp: number }> {
  return JSON.parse((await request(`${server.url}/builds/latest.json`)).body) as { id: string; timestamp: number };
}

describe('builds/latest.json', () => {
  it('names the running build, is never cached, and tells the poll interval', async () => {
    const reply = await request(`${server.url}/builds/latest.json?${Date.now()}`);
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-cache, no-store, must-revalidate');
    expect(reply.headers['x-build-poll-interval-ms']).toBe('1500');
    const body = JSON.parse(reply.body) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual(['id', 'timestamp']);
    expect(body.id).toMatch(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/);
    expect(body.timestamp).toBeGreaterThan(Date.parse('2026-01-01'));
    expect(body.timestamp).toBeLessThanOrEqual(Date.now());
  });

  it('is the id of meridian_build_info and of the pages (data-dpl-id)', async () => {
    const { id } = await latest();
    const info = parseSeries(await scrape(server)).find((series) => series.name === 'meridian_build_info');
    expect(info?.labels.build_id).toBe(id);
    for (const path of ['/ja', '/zh-CN', '/no-such-page']) {
      expect((await request(`${server.url}${path}`)).body).toMatch(new RegExp(`<html [^>]*data-dpl-id="${id}"`));
    }
    expect((await request(`${server.url}/`, { headers: { 'accept-language': 'en' } })).body).toContain(`data-dpl-id="${id}"`);
  });

  it('answers HEAD without a body and other methods with 405', async () => {
    const head = await request(`${server.url}/builds/latest.json`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    const post = await request(`${server.url}/builds/latest.json`, { method: 'POST', body: '{}' });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toBe('GET, HEAD');
  });
});

describe('builds/meta/<id>.json', () => {
  it('is the route manifest of the running build, cached as immutable', async () => {
    const { id, timestamp } = await latest();
    const reply = await request(`${server.url}/builds/meta/${id}.json`);
    expect(reply.status).toBe(200);
    expect(reply.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const manifest = JSON.parse(reply.body) as Record<string, unknown> & { prerendered: Record<string, string[]> };
    expect(manifest).toMatchObject({ id, timestamp, defaultLocale: 'en', locales: ['en', 'zh-CN', 'ja'] });
    expect(manifest.prerendered.en).toContain('/');
    expect(manifest.prerendered['zh-CN']).toContain('/zh-CN');
    expect(manifest.prerendered.ja).toContain('/ja');
    expect(manifest.redirects).toContainEqual({ source: '/en', destination: '/', status: 308 });
  });

  it.each([
    ['another build', '/builds/meta/0123abcd.json'],
    ['an encoded climb', '/builds/meta/..%2F..%2Fpackage.json'],
    ['a literal climb', '/builds/meta/../../package.json'],
    ['a nested name', '/builds/meta/a/b.json'],
    ['a 1 000-character id', `/builds/meta/${'a'.repeat(1000)}.json`],
    ['no extension', '/builds/meta/x'],
    ['another file under builds', '/builds/other.json'],
    ['the build-info file', '/builds/../build-info.json'],
  ])('answers %s with a JSON 404', async (_, path) => {
    const reply = await request(`${server.url}${path}`);
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(reply.headers['cache-control']).toBe('no-store');
    expect(reply.body).not.toContain('meridian');
  });
});

describe('a static file this build does not have', () => {
  it.each(['/_next/static/chunks/0000-not-in-this-build.js', '/_next/static/chunks/0000.css?dpl=other', '/_next/static/other-build/x.js'])(
    '%s is a plain 404 that no cache keeps',
    async (path) => {
      const reply = await request(`${server.url}${path}`);
      expect(reply.status).toBe(404);
      expect(reply.headers['cache-control']).toBe('no-store');
      expect(reply.headers['content-type']).toBe('text/plain; charset=utf-8');
      expect(reply.body).not.toMatch(/<html/i);
    },
  );

  it('while the files it has are served', async () => {
    const page = (await request(`${server.url}/ja`)).body;
    const script = /src="(\/_next\/static\/[^"]+\.js)[^"]*"/.exec(page)?.[1];
    expect(script).toBeDefined();
    expect((await request(`${server.url}${script}`)).status).toBe(200);
  });
});
