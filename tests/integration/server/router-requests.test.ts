import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { request } from '../support/http';
import { jsonLines, startServer, type RunningServer } from '../support/server-process';

// The router's own requests (RSC) reach Next; a router state it cannot read is the client's mistake.
let server: RunningServer;

beforeAll(async () => {
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

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
});
