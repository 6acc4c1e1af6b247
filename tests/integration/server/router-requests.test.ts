import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { jsonLines, serverPerFile } from '../support/server-process';

// The router's own requests (RSC) of what the site lacks are answered from memory; those that still
// reach Next must carry a router state it can read, or it is the client's mistake.
const server = serverPerFile();

describe('router requests', () => {
  it("answer 400, not Next's 500, to a Next-Router-State-Tree header Next cannot read", async () => {
    for (const path of ['/ja/e2e-fixtures/crash', '/en/no-such-page', '/en']) {
      for (const tree of ['[[[[', '%ZZ', '{}', '["x"]']) {
        const reply = await request(`${server.url}${path}`, {
          headers: { RSC: '1', 'Next-Router-Prefetch': '1', 'Next-Router-State-Tree': tree },
        });
        expect(reply.status, `${path} ${tree}`).toBe(400);
        expect(reply.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('of a page the site lacks: a plain 404 from memory, not a flight response, so Next’s router loads the page in full', async () => {
    const tree = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}] }]));
    for (const path of ['/ja/no-such-page', '/zh-CN/a/b', '/nope$x', '/favicon.ico/x', '/%zz']) {
      for (const headers of <Record<string, string>[]>[
        { RSC: '1', 'Next-Router-State-Tree': tree },
        { RSC: '1', 'Next-Router-Prefetch': '1' },
        { RSC: '1', 'Next-Router-State-Tree': '[[[[' },
      ]) {
        const reply = await request(`${server.url}${path}?_rsc=abc`, { headers });
        expect(reply.status, path).toBe(404);
        expect(reply.headers['content-type'], path).toBe('text/plain; charset=utf-8');
        expect(reply.headers['cache-control'], path).toBe('private, no-cache, no-store, max-age=0, must-revalidate');
        expect(reply.headers.vary, path).toBe('rsc, next-router-state-tree, next-router-prefetch, next-router-segment-prefetch');
        expect(reply.body, path).toBe('Not Found\n');
      }
    }
    const head = await request(`${server.url}/ja/no-such-page`, { method: 'HEAD', headers: { RSC: '1' } });
    expect(head.status).toBe(404);
    expect(head.body).toBe('');
    expect(jsonLines(server).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('of a page Next serves, with a state it can read, go to Next as before', async () => {
    const tree = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}] }]));
    const headers = { RSC: '1', 'Next-Router-State-Tree': tree };
    // Next first sends a router request without its `_rsc` hash to the URL with it.
    const redirect = await request(`${server.url}/ja/e2e-fixtures/crash`, { headers });
    expect(redirect.status).toBe(307);
    const reply = await request(`${server.url}${redirect.headers.location}`, { headers });
    expect(reply.status).toBe(200);
    expect(reply.headers['content-type']).toMatch(/^text\/x-component/);
    expect(jsonLines(server).filter((line) => Number(line.level) >= 50)).toEqual([]);
  });

  it('are routed by the decision the server made, which Next’s proxy applies instead of deciding again', async () => {
    // Two language cookies: the server reads the first, Next's own cookie parser the last. One
    // decision means the page load and the router request of / agree: English, no redirect.
    const cookie = 'i18n_redirected=en; i18n_redirected=ja';
    const pageLoad = await request(`${server.url}/`, { headers: { cookie } });
    const router = await request(`${server.url}/`, { headers: { RSC: '1', cookie } });
    expect(pageLoad.status).toBe(200);
    expect(router.headers.location ?? '').not.toMatch(/^\/ja/);
  });

  it('never believe a routing decision a visitor sends', async () => {
    const forged = `key ${encodeURIComponent('/ja')} ${encodeURIComponent(JSON.stringify({ kind: 'redirect', status: 308, pathname: '//evil.example' }))}`;
    const reply = await request(`${server.url}/ja`, { headers: { RSC: '1', 'X-Meridian-Route': forged } });
    expect(reply.headers.location ?? '').not.toContain('evil.example');
  });
});
