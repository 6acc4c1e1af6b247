import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { run } from '../../../tools/lib/command.mjs';
import type { Tally } from '../../../tools/telemetry-attack/attacks.mjs';
import { loadPage, sendBeacon, tokenOf } from '../../../tools/telemetry-attack/requests.mjs';
import { parseSeries, request, scrape, type Reply, type RequestOptions } from '../support/http';
import { freePort, startServer, type RunningServer } from '../support/server-process';

const JSON_TYPE = { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' };
const LCP = { type: 'web_vital', name: 'LCP', value: 1200, locale: 'ja', route: '/ja' };
const KEY = 'integration-test-key-of-32-chars-or-more';

/** A command of scripts/, run to its end. */
const runScript = (script: string, args: string[]) => run(process.execPath, [script, ...args], { check: false, timeoutMs: 60_000 });

/** The JSON an attack printed: from its first line that is `{` to the next that is `}`. */
function printedResult(stdout: string): unknown {
  const lines = stdout.split('\n');
  const start = lines.indexOf('{');
  return JSON.parse(lines.slice(start, lines.indexOf('}', start) + 1).join('\n'));
}

/** Every status any test of this file saw, for the final no-5xx check. */
const seen: number[] = [];

/** A page view's token, as a browser loading `path` gets it. */
async function tokenFrom(server: RunningServer, path = '/ja'): Promise<string> {
  const { status, token } = await loadPage(server.url, { path });
  expect([200, 404]).toContain(status);
  if (!token) throw new Error(`${path} came without a page-view token`);
  return token;
}

async function beacon(server: RunningServer, options: RequestOptions & { token?: string } = {}): Promise<Reply> {
  const { token = await tokenFrom(server), ...rest } = options;
  // An empty value leaves the header out.
  const headers = Object.entries({ ...JSON_TYPE, ...rest.headers }).filter(([, value]) => value !== '');
  const reply = await request(`${server.url}/api/telemetry`, {
    method: 'POST',
    body: JSON.stringify({ token, events: [LCP] }),
    ...rest,
    headers: Object.fromEntries(headers),
  });
  seen.push(reply.status);
  return reply;
}

const counter = async (server: RunningServer, name: string, labels: Record<string, string> = {}) =>
  parseSeries(await scrape(server))
    .filter((one) => one.name === name && Object.entries(labels).every(([key, value]) => one.labels[key] === value))
    .reduce((sum, one) => sum + one.value, 0);

let proxied: RunningServer;
let direct: RunningServer;
let sameKey: RunningServer;
let otherKey: RunningServer;

beforeAll(async () => {
  // Trusting the loopback peer (the test, standing in for a proxy), each test sends from its own
  // X-Forwarded-For address, so each has a fresh budget.
  [proxied, direct, sameKey, otherKey] = await Promise.all([
    startServer({ TRUST_PROXY: 'loopback', TELEMETRY_TOKEN_KEYS: KEY }),
    // Empty is unset for the server's config: the harness's default key is not given.
    startServer({ TELEMETRY_TOKEN_KEYS: '' }),
    startServer({ TELEMETRY_TOKEN_KEYS: `another-key-first-of-32-characters,${KEY}` }),
    startServer({ TELEMETRY_TOKEN_KEYS: 'another-key-first-of-32-characters' }),
  ]);
});

afterAll(async () => {
  await Promise.all([proxied?.stop(), direct?.stop(), sameKey?.stop(), otherKey?.stop()]);
});

describe('page-view tokens', () => {
  it('come with every page view a browser makes, counted, and with nothing else', async () => {
    const loadsBefore = await counter(proxied, 'meridian_page_loads_total');
    const tokens = await Promise.all(['/', '/ja', '/zh-CN', '/nope', '/ja/nope'].map((path) => tokenFrom(proxied, path)));
    expect(new Set(tokens).size).toBe(5);
    expect((await counter(proxied, 'meridian_page_loads_total')) - loadsBefore).toBe(5);

    // A script's GET, a router payload, a file and the build files: no page view, no token.
    for (const [path, headers] of [
      ['/ja', {}],
      ['/ja', { RSC: '1', 'Sec-Fetch-Dest': 'empty' }],
      ['/favicon.ico', { 'Sec-Fetch-Dest': 'document' }],
      ['/builds/latest.json', { 'Sec-Fetch-Dest': 'document' }],
    ] as const) {
      const reply = await request(`${proxied.url}${path}`, { headers });
      expect(reply.headers['server-timing'], path).toBeUndefined();
    }
  });

  it('come with a revalidated page too (304), which is a page view as well', async () => {
    const first = await request(`${proxied.url}/ja`, { headers: { 'Sec-Fetch-Dest': 'document' } });
    const again = await request(`${proxied.url}/ja`, {
      headers: { 'Sec-Fetch-Dest': 'document', 'If-None-Match': String(first.headers.etag) },
    });
    expect(again.status).toBe(304);
    expect(tokenOf(again.headers['server-timing'] as string)).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
  });

  it('count a page view once per kind: the same report again is a 409, counted as a replay', async () => {
    const token = await tokenFrom(proxied);
    const replaysBefore = await counter(proxied, 'meridian_telemetry_rejected_total', { reason: 'replay' });
    expect((await beacon(proxied, { token, headers: { 'X-Forwarded-For': '198.51.100.20' } })).status).toBe(204);
    const again = await beacon(proxied, { token, headers: { 'X-Forwarded-For': '198.51.100.20' } });
    expect(again.status).toBe(409);
    expect(JSON.parse(again.body)).toEqual({ error: 'replay' });
    expect((await counter(proxied, 'meridian_telemetry_rejected_total', { reason: 'replay' })) - replaysBefore).toBe(1);
  });

  it('are renewed by a poll of builds/latest.json that sends one, as the same page view', async () => {
    const token = await tokenFrom(proxied);
    const poll = await request(`${proxied.url}/builds/latest.json?1`, { headers: { 'X-Page-View-Token': token } });
    expect(poll.status).toBe(200);
    const renewed = String(poll.headers['x-page-view-token']);
    expect(renewed).toMatch(/^[\w-]+\.[\w-]+\.[\w-]+$/);
    expect((await beacon(proxied, { token: renewed, headers: { 'X-Forwarded-For': '198.51.100.21' } })).status).toBe(204);
    // The LCP of this page view is in: the original token cannot report it again.
    expect((await beacon(proxied, { token, headers: { 'X-Forwarded-For': '198.51.100.21' } })).status).toBe(409);
    // A forged token is not renewed, and a poll without one gets none.
    const forged = await request(`${proxied.url}/builds/latest.json`, { headers: { 'X-Page-View-Token': `${token}x` } });
    expect(forged.headers['x-page-view-token']).toBeUndefined();
    expect((await request(`${proxied.url}/builds/latest.json`)).headers['x-page-view-token']).toBeUndefined();
  });

  it("are verified by every process holding the release's key, old keys included, and by no other", async () => {
    const token = await tokenFrom(proxied);
    expect((await beacon(sameKey, { token })).status).toBe(204);
    const stranger = await beacon(otherKey, { token });
    expect(stranger.status).toBe(403);
    expect(JSON.parse(stranger.body)).toEqual({ error: 'bad_token' });
  });

  it('warn at start when TELEMETRY_TOKEN_KEYS is unset, as tokens then verify on that process only', () => {
    const warning = (server: RunningServer) => server.lines().some((line) => line.includes('TELEMETRY_TOKEN_KEYS is unset'));
    expect(warning(direct)).toBe(true);
    expect(warning(proxied)).toBe(false);
  });
});

describe('two pods of a release', () => {
  it('count each page view once, at the pod that issued its token, however many pods its replays reach', async () => {
    // As two pods: each its own address (POD_IP), the port they share.
    const port = await freePort();
    const pod = (address: string) => startServer({ TELEMETRY_TOKEN_KEYS: KEY, POD_IP: address, HOSTNAME: address }, { port });
    const [owner, other] = await Promise.all([pod('127.0.0.2'), pod('127.0.0.3')]);
    try {
      const { token } = await loadPage(owner.url, { path: '/ja' });
      const failure = { token, events: [{ type: 'chunk_reload_blocked' }] };
      // The other pod answers at once and relays the beacon to the owner, which counts it.
      expect(await sendBeacon(other.url, failure)).toBe(202);
      await vi.waitFor(async () => expect(await counter(owner, 'meridian_client_events_total', { event: 'chunk_reload_blocked' })).toBe(1));
      const statuses = [];
      for (const each of [other, owner, other, owner]) statuses.push(await sendBeacon(each.url, failure));
      expect(statuses).toEqual([202, 409, 202, 409]);
      await vi.waitFor(async () => expect(await counter(owner, 'meridian_telemetry_rejected_total', { reason: 'replay' })).toBe(4));
      expect(await counter(owner, 'meridian_client_events_total', { event: 'chunk_reload_blocked' })).toBe(1);
      expect(await counter(other, 'meridian_client_events_total', { event: 'chunk_reload_blocked' })).toBe(0);
      expect(await counter(other, 'meridian_telemetry_relays_total', { result: 'relayed' })).toBe(3);

      // The owner gone (its pod replaced), the other counts its page views' reports itself.
      await owner.stop();
      expect(await sendBeacon(other.url, { token, events: [{ type: 'chunk_reload' }] })).toBe(202);
      await vi.waitFor(async () => expect(await counter(other, 'meridian_client_events_total', { event: 'chunk_reload' })).toBe(1));
      expect(await counter(other, 'meridian_telemetry_relays_total', { result: 'owner_gone' })).toBe(1);
    } finally {
      await Promise.all([owner.stop(), other.stop()]);
    }
  });
});

describe('POST /api/telemetry through the real server', () => {
  it('answers 204 to a beacon of one of its pages, by Sec-Fetch-Site or, over plain HTTP, by Origin', async () => {
    const json = await beacon(proxied, { headers: { 'X-Forwarded-For': '198.51.100.1' } });
    const origin = await beacon(proxied, {
      headers: { 'X-Forwarded-For': '198.51.100.1', 'Sec-Fetch-Site': '', Origin: proxied.url },
    });
    expect(json.status).toBe(204);
    expect(json.body).toBe('');
    expect(json.headers['cache-control']).toBe('no-store');
    expect(origin.status).toBe(204);
  });

  it("refuses another site's beacon, text/plain or JSON, with 403, counted", async () => {
    const before = await counter(proxied, 'meridian_telemetry_rejected_total', { reason: 'cross_site' });
    for (const type of ['text/plain;charset=UTF-8', 'application/json']) {
      const reply = await beacon(proxied, {
        headers: {
          'X-Forwarded-For': '198.51.100.6',
          'Content-Type': type,
          'Sec-Fetch-Site': 'cross-site',
          Origin: 'https://evil.example',
        },
      });
      expect(reply.status).toBe(403);
      expect(JSON.parse(reply.body)).toEqual({ error: 'cross_site' });
    }
    expect((await counter(proxied, 'meridian_telemetry_rejected_total', { reason: 'cross_site' })) - before).toBe(2);
  });

  it('answers 415 to a body of another type', async () => {
    const reply = await beacon(proxied, {
      headers: { 'X-Forwarded-For': '198.51.100.2', 'Content-Type': 'application/x-www-form-urlencoded' },
    });

    expect(reply.status).toBe(415);
    expect(JSON.parse(reply.body)).toEqual({ error: 'unsupported_media_type' });
  });

  it('answers 405 to GET, naming POST as allowed', async () => {
    const reply = await beacon(proxied, { method: 'GET', body: undefined, headers: { 'X-Forwarded-For': '198.51.100.3' } });

    expect(reply.status).toBe(405);
    expect(reply.headers.allow).toBe('POST');
  });

  it('answers 413 to a 9 KiB body, announced or chunked', async () => {
    const big = JSON.stringify({ events: [{ type: 'chunk_reload', reason: 'x'.repeat(9 * 1024) }] });
    const announced = await beacon(proxied, { body: big, headers: { 'X-Forwarded-For': '198.51.100.4' } });
    const chunked = await beacon(proxied, { body: big, headers: { 'X-Forwarded-For': '198.51.100.4', 'Transfer-Encoding': 'chunked' } });

    expect(announced.status).toBe(413);
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toEqual({ error: 'payload_too_large' });
  });

  it('answers 400 to a body that is not JSON, or not a batch', async () => {
    const notJson = await beacon(proxied, { body: '{ not json', headers: { 'X-Forwarded-For': '198.51.100.5' } });
    const notBatch = await beacon(proxied, { body: '{"events":[{"type":"nope"}]}', headers: { 'X-Forwarded-For': '198.51.100.5' } });

    expect(notJson.status).toBe(400);
    expect(JSON.parse(notJson.body)).toEqual({ error: 'invalid_json' });
    expect(notBatch.status).toBe(400);
  });

  it('answers 429 to the 61st request in a minute from one socket address, with Retry-After', async () => {
    const tokens = await Promise.all(Array.from({ length: 62 }, () => tokenFrom(direct)));
    const statuses: number[] = [];
    for (const token of tokens.slice(0, 61)) statuses.push((await beacon(direct, { token })).status);

    expect(statuses.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(statuses[60]).toBe(429);
    const refused = await beacon(direct, { token: tokens[61] });
    expect(refused.status).toBe(429);
    expect(refused.headers['retry-after']).toBe('60');
    expect(JSON.parse(refused.body)).toEqual({ error: 'rate_limited' });
  });

  it('does not let an untrusted X-Forwarded-For buy a fresh budget', async () => {
    // The budget of 127.0.0.1 on this server is spent by the previous test.
    expect((await beacon(direct, { headers: { 'X-Forwarded-For': '192.0.2.99' } })).status).toBe(429);
  });

  it('keeps a separate budget per client address with TRUST_PROXY=loopback, read from the right of X-Forwarded-For', async () => {
    const tokens = await Promise.all(Array.from({ length: 63 }, () => tokenFrom(proxied)));
    const first: number[] = [];
    for (const token of tokens.slice(0, 61))
      first.push((await beacon(proxied, { token, headers: { 'X-Forwarded-For': '203.0.113.10' } })).status);
    // A forged entry left of the client's address changes nothing: still 203.0.113.10, still over the limit.
    const forged = await beacon(proxied, { token: tokens[61], headers: { 'X-Forwarded-For': '203.0.113.99, 203.0.113.10' } });
    const second = await beacon(proxied, { token: tokens[62], headers: { 'X-Forwarded-For': '10.0.0.1, 203.0.113.20' } });

    expect(first.slice(0, 60).every((status) => status === 204)).toBe(true);
    expect(first[60]).toBe(429);
    expect(forged.status).toBe(429);
    expect(second.status).toBe(204);
  });

  it('counts a beacon sent as the site’s pages send it, through the attacker tool too', async () => {
    const token = await tokenFrom(proxied, '/');
    expect(
      await sendBeacon(proxied.url, { token, events: [{ type: 'chunk_reload' }] }, { headers: { 'X-Forwarded-For': '198.51.100.30' } }),
    ).toBe(204);
  });

  it('the attacker (npm run attack:telemetry): its forgeries and replays move nothing but the refused counter, as it prints', async () => {
    const script = path.join(ROOT, 'scripts', 'attack-telemetry.mjs');
    // A limit the attack does not reach: each kind's refusal is what it prints.
    const site = await startServer({ TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000' });
    const args = ['--target', site.url, '--seconds', '2', '--rate', '20', '--tokens', '2', '--metrics', `${site.metricsUrl}/metrics`];
    // Both attacks run before anything is checked, so the server stops whatever they printed.
    const [forge, replay] = await (async () => {
      try {
        return [await runScript(script, [...args, '--attack', 'forge']), await runScript(script, [...args, '--attack', 'replay'])];
      } finally {
        await site.stop();
      }
    })();
    expect(forge.exitCode, forge.stderr).toBe(0);
    const forged = printedResult(forge.stdout) as Tally;
    expect(forged['cross-site text/plain']?.['403']).toBeGreaterThan(0);
    expect(Object.values(forged).filter((answers) => '204' in answers)).toEqual([]);
    expect(forge.stdout).toMatch(/meridian_telemetry_rejected_total\{reason="bad_token"\} \+\d+/);
    expect(forge.stdout).not.toContain('meridian_client_failed_page_views_total');
    const { tally: replayed } = printedResult(replay.stdout) as { tally: Tally };
    expect(replayed['first use']?.['204']).toBe(2);
    expect(replayed.replay?.['409']).toBeGreaterThan(0);
    expect(Object.keys(replayed.replay ?? {})).toEqual(['409']);
    expect(replay.stdout).toContain('meridian_client_failed_page_views_total{page_build="self"} +2');
    const nowhere = await runScript(script, ['--target', site.url, '--seconds', '1']);
    expect(nowhere).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('answers nothing') });
  });

  it('never answered with a 5xx', () => {
    expect(seen.length).toBeGreaterThan(120);
    expect(seen.filter((status) => status >= 500)).toEqual([]);
  });
});
