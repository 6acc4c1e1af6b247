import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ensureDebianPackages } from '../../../tools/debian-packages.mjs';
import { startHaproxy } from '../../../tools/rollout/haproxy.mjs';
import { accessLine, request } from '../support/http';
import { loadPage, sendBeacon } from '../../../tools/telemetry-attack/requests.mjs';
import { freePort, startServer, type RunningServer } from '../support/server-process';

// Debian's haproxy in front of one app process, appending to X-Forwarded-For
// (`option forwardfor`) as the compose stack's balancer does, with the app
// trusting that one hop (TRUST_PROXY=1, the compose setting).

const LIMIT = 3;
let server: RunningServer;
let haproxy: Awaited<ReturnType<typeof startHaproxy>>;
let dir: string;

beforeAll(async () => {
  ensureDebianPackages(['haproxy']);
  dir = mkdtempSync(path.join(tmpdir(), 'meridian-haproxy-'));
  server = await startServer({ TRUST_PROXY: '1', TELEMETRY_RATE_LIMIT_PER_MINUTE: String(LIMIT) });
  haproxy = await startHaproxy({
    dir,
    port: await freePort(),
    servers: [{ name: 'app', port: Number(new URL(server.url).port) }],
    forwardFor: true,
  });
  await haproxy.waitUntilServing('app');
});

afterAll(async () => {
  await haproxy?.stop();
  await server?.stop();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('behind haproxy with TRUST_PROXY=1', () => {
  it.each([
    ['a forged address', '198.51.100.66'],
    ['a forged chain', '198.51.100.66, 203.0.113.7, 10.0.0.1'],
    ['garbage', 'not-an-address'],
    ['nothing', undefined],
  ])('logs the address haproxy saw, whatever X-Forwarded-For the visitor sent (%s)', async (_, forged) => {
    const id = `haproxy-${Math.random().toString(36).slice(2)}`;
    const headers: Record<string, string> = { 'X-Request-Id': id, ...(forged ? { 'X-Forwarded-For': forged } : {}) };
    const reply = await request(`${haproxy.url}/ja`, { headers });

    expect(reply.status).toBe(200);
    expect((await accessLine(server, id)).remote_address).toBe('127.0.0.1');
  });

  it('keeps one telemetry budget for the visitor however often the forged header changes', async () => {
    const statuses: number[] = [];
    const tokens = await Promise.all(Array.from({ length: LIMIT + 2 }, async () => (await loadPage(haproxy.url)).token));
    for (const [i, token] of tokens.entries()) {
      const event = { type: 'build_update_detected', from: 'a', to: 'b' };
      // As a page behind the balancer sends it: its Origin is the balancer's address, which haproxy keeps as the Host.
      const headers = { 'X-Forwarded-For': `198.51.100.${i + 1}`, 'Sec-Fetch-Site': '' };
      statuses.push(await sendBeacon(haproxy.url, { token, events: [event] }, { headers }));
    }

    expect(statuses).toEqual([...Array<number>(LIMIT).fill(204), 429, 429]);
  });
});
