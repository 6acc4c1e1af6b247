import { describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { jsonLines, serverPerFile } from '../support/server-process';

// The router's own requests (RSC) reach Next; a router state it cannot read is the client's mistake.
const server = serverPerFile();

describe('router requests', () => {
  it("answer 400, not Next's 500, to a Next-Router-State-Tree header Next cannot read", async () => {
    for (const path of ['/ja/no-such-page', '/%zz', '/favicon.ico/x', '/zh-CN/a/b']) {
      for (const tree of ['[[[[', '%ZZ', '{}', '["x"]']) {
        const reply = await request(`${server.url}${path}`, {
          headers: { RSC: '1', 'Next-Router-Prefetch': '1', 'Next-Router-State-Tree': tree },
        });
        expect(reply.status, `${path} ${tree}`).toBe(400);
        expect(reply.headers['cache-control']).toBe('no-store');
      }
    }
  });

  it('with a state Next can read, go to Next as before', async () => {
    const tree = encodeURIComponent(JSON.stringify(['', { children: ['__PAGE__', {}] }]));
    const reply = await request(`${server.url}/ja/no-such-page`, { headers: { RSC: '1', 'Next-Router-State-Tree': tree } });
    expect(reply.status).toBe(404);
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
