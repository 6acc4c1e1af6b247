import { createServer, request, type OutgoingHttpHeaders, type Server } from 'node:http';
import { createConnection, createServer as createNetServer, type Socket } from 'node:net';
import type { AddressInfo } from 'node:net';
import { Worker } from 'node:worker_threads';
import pino from 'pino';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { createMetrics, type Metrics } from '@/server/observability/metrics';
import { compileTrust } from '@/server/serving/edge/client-address';
import { createBeaconRelay, RELAY_HEADER } from '@/server/serving/telemetry/beacon-relay';
import { createPageViewTokens } from '@/server/serving/telemetry/page-view-tokens';
import { createRateLimiter } from '@/server/serving/telemetry/rate-limit';
import { createReplayGuard, type ReplayGuard } from '@/server/serving/telemetry/replay-guard';
import { handleTelemetry } from '@/server/serving/telemetry/telemetry-endpoint';

const servers: Server[] = [];
const logLines: string[][] = [];
const rejections: unknown[] = [];

const KEY = 'k'.repeat(32);
/** The server's tokens, and another server's of the same release (same key) that issued a page of build `b`. */
const tokensOf = (now = Date.now) => createPageViewTokens({ keys: [KEY], ttlMs: 1_800_000, now });
/** A token of a page of this server's build `t` in Japanese, and one of another build. */
const ownPage = () => tokensOf().issue('t', 'ja');
const otherPage = () => tokensOf().issue('b', 'zh-CN');

/** A pod of a release: where it listens (its podIp, the port every pod shares), and what it needs. */
interface PodOptions {
  limiter?: { take(address: string): boolean };
  readTimeoutMs?: number;
  now?: () => number;
  /** This pod's address, the owner its tokens name; empty: outside Kubernetes. */
  podIp?: string;
  port?: number;
  replays?: ReplayGuard;
  maxRelaysInFlight?: number;
  /** The pod's readiness, which its shutdown sets draining (shutdown.ts). */
  readiness?: { draining: boolean };
}

/** A real server; the client address comes from X-Client, as the pipeline takes it from X-Forwarded-For. */
async function start({
  limiter = { take: () => true },
  readTimeoutMs,
  now = Date.now,
  podIp = '',
  port: listenPort = 0,
  replays = createReplayGuard({ now }),
  maxRelaysInFlight,
  readiness = { draining: false },
}: PodOptions = {}) {
  const metrics = createMetrics({ buildId: 't', version: 't', revision: 't', builtAt: 0 });
  const lines: string[] = [];
  const logger = pino({ level: 'debug' }, { write: (line: string) => void lines.push(line) });
  const server = createServer();
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(listenPort, podIp || '127.0.0.1', resolve));
  const address = server.address() as AddressInfo;
  const services = {
    limiter,
    tokens: createPageViewTokens({ keys: [KEY], ttlMs: 1_800_000, now, owner: podIp }),
    replays,
    relay: createBeaconRelay({ keys: [KEY], port: address.port, maxInFlight: maxRelaysInFlight }),
    podIp,
    siteOrigin: 'https://meridian.example',
    readTimeoutMs,
  };
  server.on('request', (req, res) => {
    const clientAddress = String(req.headers['x-client'] ?? req.socket.remoteAddress);
    const deps = { ...services, metrics, logger, buildId: 't', clientAddress, trust: compileTrust(false), draining: readiness.draining };
    handleTelemetry(req, res, deps).catch((error) => rejections.push(error));
  });
  const host = podIp || '127.0.0.1';
  const port = address.port;
  logLines.push(lines);
  const logs = (): Record<string, unknown>[] => lines.map((line) => JSON.parse(line));
  const rejected = async () =>
    Object.fromEntries(
      (await metrics.telemetryRejected.get()).values.filter(({ value }) => value > 0).map(({ labels, value }) => [labels.reason, value]),
    );
  return {
    url: `http://${host}:${port}/api/telemetry`,
    origin: `http://${host}:${port}`,
    port,
    server,
    tokens: services.tokens,
    metrics,
    readiness,
    lines,
    logs,
    rejected,
  };
}

afterEach(async () => {
  // Whatever a test sent, the handler never rejected and no log line is longer than 4 KiB.
  expect(rejections.splice(0)).toEqual([]);
  for (const line of logLines.splice(0).flat()) expect(Buffer.byteLength(line)).toBeLessThanOrEqual(4096);
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

/** A POST as our pages send it: same origin, JSON; a body object without a token gets one of a page of this build. */
const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    body: typeof body === 'string' ? body : JSON.stringify({ token: ownPage(), ...(body as object) }),
    headers: { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin', ...headers },
  });

/** node:http, for what fetch won't send: no Content-Type, a body in chunks, a body never finished. */
function raw(url: string, headers: OutgoingHttpHeaders, chunks: string[], end = true) {
  return new Promise<{ status: number; headers: Record<string, unknown>; body: string }>((resolve, reject) => {
    const req = request(url, { method: 'POST', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      res.on('error', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    // The server may close while the rest of the body is on its way: an error after the answer changes nothing.
    req.on('error', reject);
    for (const chunk of chunks) req.write(chunk);
    if (end) req.end();
  });
}

const SAME_ORIGIN_JSON = { 'Content-Type': 'application/json', 'Sec-Fetch-Site': 'same-origin' };

async function expectError(response: Response, status: number) {
  expect(response.status).toBe(status);
  expect(response.headers.get('content-type')).toBe('application/json');
  expect(response.headers.get('cache-control')).toBe('no-store');
  expect(await response.json()).toEqual({ error: expect.any(String) });
}

/** The series a request moved: every failure and event series exists from the start at 0. */
const values = async (metric: { get(): Promise<{ values: { labels: object; value: number; metricName?: string }[] }> }) =>
  (await metric.get()).values.filter((series) => series.value !== 0);

describe('POST /api/telemetry', () => {
  it("answers 204 with no body to a valid beacon of one of the site's pages", async () => {
    const { url } = await start();
    for (const headers of [{}, { 'Content-Type': 'Application/JSON; charset=utf-8' }] as Record<string, string>[]) {
      const response = await post(url, { events: [{ type: 'chunk_reload' }] }, headers);
      expect(response.status).toBe(204);
      expect(response.headers.get('cache-control')).toBe('no-store');
      expect(await response.text()).toBe('');
    }
  });

  it.each([
    ['not JSON', '{"events": ['],
    ['an empty body', ''],
    ['the wrong shape', { event: [{ type: 'chunk_reload' }] }],
    ['an unknown event', { events: [{ type: 'page_view' }] }],
    ['21 events', { events: Array.from({ length: 21 }, () => ({ type: 'chunk_reload' })) }],
    ['a bad web vital name', { events: [{ type: 'web_vital', name: 'FID', value: 1, locale: 'en', route: '/' }] }],
  ])('answers 400 to %s', async (_, body) => {
    const { url, metrics } = await start();
    await expectError(await post(url, body), 400);
    expect(await values(metrics.clientEvents)).toEqual([]);
  });

  it.each(['GET', 'PUT'])('answers 405 to %s, allowing POST', async (method) => {
    const { url } = await start();
    const response = await fetch(url, { method, body: method === 'PUT' ? '{"events":[]}' : undefined });
    await expectError(response, 405);
    expect(response.headers.get('allow')).toBe('POST');
  });

  it('answers 415 to a form, to text/plain (what another site could send without asking) and to a body without a type', async () => {
    const { url, rejected } = await start();
    const form = await post(url, 'events=1', { 'Content-Type': 'application/x-www-form-urlencoded' });
    await expectError(form, 415);
    const text = await post(url, JSON.stringify({ token: ownPage(), events: [{ type: 'chunk_reload' }] }), {
      'Content-Type': 'text/plain',
    });
    await expectError(text, 415);
    const untyped = await raw(url, { 'Content-Length': 2, 'Sec-Fetch-Site': 'same-origin' }, ['{}']);
    expect(untyped.status).toBe(415);
    expect(untyped.headers['content-type']).toBe('application/json');
    expect(await rejected()).toEqual({ unsupported_media_type: 3 });
  });

  it('answers 413 to a Content-Length over 8 KiB, without reading the body', async () => {
    const { url } = await start();
    const response = await raw(url, { ...SAME_ORIGIN_JSON, 'Content-Length': 8193 }, ['x'.repeat(8193)]);
    expect(response).toMatchObject({ status: 413, body: '{"error":"payload_too_large"}' });
    expect(response.headers).toMatchObject({ 'cache-control': 'no-store', connection: 'close' });
  });

  it('answers 413 to a chunked body that grows over 8 KiB', async () => {
    const { url } = await start();
    const chunks = Array.from({ length: 20 }, () => 'x'.repeat(1024));
    const response = await raw(url, SAME_ORIGIN_JSON, chunks);
    expect(response).toMatchObject({ status: 413, headers: { connection: 'close' } });
    // Exactly 8 KiB is still accepted (and then refused as not JSON).
    expect((await raw(url, SAME_ORIGIN_JSON, ['x'.repeat(8192)])).status).toBe(400);
  });

  it('answers 408 to a body that never ends, and closes the connection', async () => {
    const { url } = await start({ readTimeoutMs: 100 });
    const response = await raw(url, { ...SAME_ORIGIN_JSON, 'Transfer-Encoding': 'chunked' }, ['{"ev'], false);
    expect(response).toMatchObject({ status: 408, headers: { connection: 'close' } });
  });

  it('answers 429 to the 61st request in a minute from one address, however invalid the first 60', async () => {
    const { url } = await start({ limiter: createRateLimiter({ limit: 60, windowMs: 60_000 }) });
    const valid = { events: [{ type: 'chunk_reload' }] };
    for (let i = 0; i < 20; i += 1) {
      expect((await fetch(url, { headers: { 'X-Client': 'a' } })).status).toBe(405);
      expect((await post(url, 'nope', { 'X-Client': 'a' })).status).toBe(400);
      expect((await post(url, valid, { 'X-Client': 'a' })).status).toBe(204);
    }
    const limited = await post(url, valid, { 'X-Client': 'a' });
    await expectError(limited, 429);
    expect(limited.headers.get('retry-after')).toBe('60');
    expect((await post(url, valid, { 'X-Client': 'b' })).status).toBe(204);
  });

  it('answers 400 to an unexpected failure, and logs it at warn', async () => {
    const { url, logs } = await start({
      limiter: {
        take: () => {
          throw new Error('broken limiter');
        },
      },
    });
    await expectError(await post(url, { events: [{ type: 'chunk_reload' }] }), 400);
    expect(logs()).toMatchObject([{ level: 40, msg: 'Telemetry request failed', error: 'Error: broken limiter' }]);
  });
});

describe('forged beacons', () => {
  const failure = { events: [{ type: 'chunk_reload_blocked' }] };
  /** No client series moved: the forgery counted for nothing. */
  const expectNothingCounted = async (metrics: Metrics) => {
    expect(await values(metrics.clientEvents)).toEqual([]);
    expect(await values(metrics.failedPageViews)).toEqual([]);
  };

  it.each([
    ['Sec-Fetch-Site: cross-site', { 'Sec-Fetch-Site': 'cross-site', Origin: 'https://evil.example' }, 'cross_site'],
    [
      'Sec-Fetch-Site: same-site (a sibling subdomain)',
      { 'Sec-Fetch-Site': 'same-site', Origin: 'https://evil.meridian.example' },
      'cross_site',
    ],
    ['Sec-Fetch-Site: none (typed into the address bar)', { 'Sec-Fetch-Site': 'none' }, 'cross_site'],
    ['an Origin of another site, over plain HTTP', { 'Sec-Fetch-Site': '', Origin: 'https://evil.example' }, 'cross_origin'],
    ['Origin: null (a sandboxed frame, a data: URL)', { 'Sec-Fetch-Site': '', Origin: 'null' }, 'cross_origin'],
    ['an Origin on another port of this host', { 'Sec-Fetch-Site': '', Origin: 'http://127.0.0.1:1' }, 'cross_origin'],
    ['neither Sec-Fetch-Site nor Origin (a script)', { 'Sec-Fetch-Site': '' }, 'no_origin'],
  ])('refuses %s with 403, counted', async (_, headers, reason) => {
    const { url, metrics, rejected } = await start();
    const sent = Object.fromEntries(Object.entries(headers).filter(([, value]) => value !== ''));
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ token: ownPage(), ...failure }),
      headers: { 'Content-Type': 'application/json', ...sent },
    });
    await expectError(response, 403);
    expect(await rejected()).toEqual({ [reason]: 1 });
    await expectNothingCounted(metrics);
  });

  it('refuses a text/plain beacon from another site before reading it', async () => {
    const { url, rejected } = await start();
    const response = await fetch(url, {
      method: 'POST',
      body: JSON.stringify({ token: ownPage(), ...failure }),
      headers: { 'Content-Type': 'text/plain', Origin: 'https://evil.example' },
    });
    await expectError(response, 403);
    expect(await rejected()).toEqual({ cross_origin: 1 });
  });

  it("accepts an Origin equal to the site's, as the visitor addressed it or as SITE_URL names it, where browsers send no Sec-Fetch-Site", async () => {
    const { url, origin } = await start();
    for (const sent of [origin, 'https://meridian.example', 'HTTPS://Meridian.Example:443']) {
      const response = await fetch(url, {
        method: 'POST',
        body: JSON.stringify({ token: ownPage(), ...failure }),
        headers: { 'Content-Type': 'application/json', Origin: sent },
      });
      expect(response.status, sent).toBe(204);
    }
  });

  it.each([
    ['no token', {}, 'no_token'],
    ['a token that is no token', { token: 'x.y.z' }, 'bad_token'],
    [
      'a token signed with another key',
      { token: createPageViewTokens({ keys: ['o'.repeat(32)], ttlMs: 60_000 }).issue('t', 'en') },
      'bad_token',
    ],
    ['a token whose build was edited', { token: 'edited' }, 'bad_token'],
    ['a token over 400 characters', { token: 'x'.repeat(401) }, 'invalid_batch'],
  ])('refuses a beacon with %s, counted', async (_, fields, reason) => {
    const { url, metrics, rejected } = await start();
    const body: Record<string, unknown> = { ...failure, ...fields };
    if (body.token === 'edited') {
      const [keyId, payload, mac] = ownPage().split('.') as [string, string, string];
      const forged = Buffer.from(payload, 'base64url').toString().replace('~t~', '~b~');
      body.token = `${keyId}.${Buffer.from(forged).toString('base64url')}.${mac}`;
    }
    const response = await fetch(url, { method: 'POST', body: JSON.stringify(body), headers: SAME_ORIGIN_JSON });
    await expectError(response, reason === 'invalid_batch' ? 400 : 403);
    expect(await rejected()).toEqual({ [reason]: 1 });
    await expectNothingCounted(metrics);
  });

  it('refuses an expired token, and takes one the whole of its life', async () => {
    // A whole second: tokens state their times in seconds.
    let time = 1_800_000_000_000;
    const { url, rejected } = await start({ now: () => time });
    const token = tokensOf(() => time).issue('t', 'en');
    time += 1_800_000;
    expect((await post(url, { token, ...failure })).status).toBe(204);
    time += 1000;
    await expectError(await post(url, { token, events: [{ type: 'chunk_reload' }] }), 403);
    expect(await rejected()).toEqual({ expired_token: 1 });
  });

  it('counts each kind once per token: a replayed beacon is refused with 409, and 20 events of one kind count 1', async () => {
    const { url, metrics, rejected } = await start();
    const token = ownPage();
    expect((await post(url, { token, ...failure })).status).toBe(204);
    for (let i = 0; i < 5; i += 1) await expectError(await post(url, { token, ...failure }), 409);
    const twenty = { token: ownPage(), events: Array.from({ length: 20 }, () => ({ type: 'chunk_reload' })) };
    expect((await post(url, twenty)).status).toBe(204);
    expect(await rejected()).toEqual({ replay: 5 + 19 });
    expect((await values(metrics.clientEvents)).map(({ labels, value }) => [(labels as { event: string }).event, value])).toEqual([
      ['chunk_reload', 1],
      ['chunk_reload_blocked', 1],
    ]);
    expect((await values(metrics.failedPageViews)).map(({ value }) => value)).toEqual([2]);
  });
});

describe('each page view counted by the pod that issued its token', () => {
  /** Two pods of a release on the port they share, each at its own loopback address. */
  async function twoPods(otherOptions: PodOptions = {}) {
    const owner = await start({ podIp: '127.0.0.2' });
    const other = await start({ ...otherOptions, podIp: '127.0.0.3', port: owner.port });
    return { owner, other };
  }

  /** The results of a pod's relays so far. */
  const relaysOf = async (pod: { metrics: Metrics }) =>
    (await values(pod.metrics.telemetryRelays)).map(({ labels, value }) => [(labels as { result: string }).result, value]);
  /** Relays end in the background: waits until the pod's counts by outcome are `expected`. */
  const relaysBecome = (pod: { metrics: Metrics }, expected: [string, number][]) =>
    vi.waitFor(async () => expect(await relaysOf(pod)).toEqual(expected), { timeout: 5000 });

  it('relays a beacon to the pod that issued its token, which counts it once however many pods the replays reach', async () => {
    const { owner, other } = await twoPods();
    const token = owner.tokens.issue('t', 'ja');
    const failure = { token, events: [{ type: 'chunk_reload_blocked' }] };
    // Answered at once: the relay goes on in the background.
    const first = await post(other.url, failure);
    expect([first.status, await first.text()]).toEqual([202, '']);
    await vi.waitFor(async () => expect((await values(owner.metrics.clientEvents)).map(({ value }) => value)).toEqual([1]));
    const statuses = [];
    for (const url of [other.url, owner.url, other.url]) statuses.push((await post(url, failure)).status);
    expect(statuses).toEqual([202, 409, 202]);
    await vi.waitFor(async () => expect(await owner.rejected()).toEqual({ replay: 3 }));
    expect((await values(owner.metrics.clientEvents)).map(({ value }) => value)).toEqual([1]);
    expect(await values(other.metrics.clientEvents)).toEqual([]);
    expect(await relaysOf(other)).toEqual([['relayed', 3]]);
  });

  it('counts a beacon itself when the owner is gone', async () => {
    const { owner, other } = await twoPods();
    const token = owner.tokens.issue('t', 'ja');
    owner.server.closeAllConnections();
    await new Promise((resolve) => owner.server.close(resolve));
    expect((await post(other.url, { token, events: [{ type: 'chunk_reload' }] })).status).toBe(202);
    await vi.waitFor(async () => expect((await values(other.metrics.clientEvents)).map(({ value }) => value)).toEqual([1]));
    expect(await relaysOf(other)).toEqual([['owner_gone', 1]]);
  });

  it('counts a beacon itself when the owner is shutting down: what the owner counted now could leave with it unscraped', async () => {
    const { owner, other } = await twoPods();
    const token = owner.tokens.issue('t', 'ja');
    owner.readiness.draining = true;
    expect((await post(other.url, { token, events: [{ type: 'chunk_reload' }] })).status).toBe(202);
    await relaysBecome(other, [['owner_leaving', 1]]);
    expect((await values(other.metrics.clientEvents)).map(({ value }) => value)).toEqual([1]);
    expect(await values(owner.metrics.clientEvents)).toEqual([]);
    // A beacon sent to the leaving pod itself is still its own to count.
    const direct = await post(owner.url, { token, events: [{ type: 'chunk_reload_blocked' }] });
    expect(direct.status).toBe(204);
    expect((await values(owner.metrics.clientEvents)).map(({ value }) => value)).toEqual([1]);
    // A stranger's forged mark is refused as ever: it cannot make a pod hand its count over.
    const forged = await fetch(owner.url, {
      method: 'POST',
      body: JSON.stringify({ token, events: [{ type: 'chunk_reload' }] }),
      headers: { 'Content-Type': 'application/json', [RELAY_HEADER]: Buffer.alloc(32).toString('base64url') },
    });
    await expectError(forged, 403);
  });

  it('counts a beacon itself when the connection to its owner never opens: the owner got nothing', async () => {
    const owner = await unreachableOwner();
    const other = await start({ podIp: '127.0.0.3', port: owner.port });
    expect((await post(other.url, { token: owner.token(), events: [{ type: 'chunk_reload' }] })).status).toBe(202);
    await relaysBecome(other, [['owner_gone', 1]]);
    expect((await values(other.metrics.clientEvents)).map(({ value }) => value)).toEqual([1]);
    await owner.close();
  });

  it('drops a beacon whose owner is there but does not answer in time, rather than count it twice', async () => {
    const owner = await silentOwner();
    const other = await start({ podIp: '127.0.0.3', port: owner.port });
    expect((await post(other.url, { token: owner.token(), events: [{ type: 'chunk_reload' }] })).status).toBe(202);
    await relaysBecome(other, [['owner_busy', 1]]);
    await owner.close();
    expect(await values(other.metrics.clientEvents)).toEqual([]);
  });

  /** The token of a page view issued by the pod at 127.0.0.2. */
  const ownerToken = () => createPageViewTokens({ keys: [KEY], ttlMs: 60_000, owner: '127.0.0.2' }).issue('t', 'ja');

  /** An owner that takes connections and never answers: a pod too busy to. */
  async function silentOwner() {
    const held: Socket[] = [];
    const silent = createNetServer((socket) => void held.push(socket));
    await new Promise<void>((resolve) => silent.listen(0, '127.0.0.2', resolve));
    return {
      port: (silent.address() as AddressInfo).port,
      token: ownerToken,
      async close() {
        for (const socket of held) socket.destroy();
        await new Promise((resolve) => silent.close(resolve));
      },
    };
  }

  /**
   * An owner's address that takes no new connection, as a gone pod's can be where nothing
   * refuses them: a listener in a thread that never accepts, its queue filled first, so later
   * SYNs are dropped.
   */
  async function unreachableOwner() {
    const listener = new Worker(
      `const { parentPort } = require('node:worker_threads');
       const server = require('node:net').createServer();
       server.listen({ port: 0, host: '127.0.0.2', backlog: 1 }, () => {
         parentPort.postMessage(server.address().port);
         Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 15000);
       });`,
      { eval: true },
    );
    const port = await new Promise<number>((resolve) => listener.once('message', resolve));
    const queued = [0, 1, 2, 3].map(() => createConnection(port, '127.0.0.2').on('error', () => {}));
    return {
      port,
      token: ownerToken,
      async close() {
        for (const socket of queued) socket.destroy();
        await listener.terminate();
      },
    };
  }

  it('sheds a relay past the ones allowed under way: answered 202, counted as shed, not queued', async () => {
    const owner = await silentOwner();
    const other = await start({ podIp: '127.0.0.3', port: owner.port, maxRelaysInFlight: 1 });
    for (let beacon = 0; beacon < 2; beacon += 1) {
      expect((await post(other.url, { token: owner.token(), events: [{ type: 'chunk_reload' }] })).status).toBe(202);
    }
    expect(await relaysOf(other)).toEqual([['shed', 1]]);
    await relaysBecome(other, [
      ['owner_busy', 1],
      ['shed', 1],
    ]);
    // The one under way is over: the next beacon is relayed again.
    expect((await post(other.url, { token: owner.token(), events: [{ type: 'chunk_reload' }] })).status).toBe(202);
    await relaysBecome(other, [
      ['owner_busy', 2],
      ['shed', 1],
    ]);
    await owner.close();
  });

  it('logs a failure while counting a beacon whose owner is gone; the process goes on', async () => {
    const broken: ReplayGuard = {
      firstReport() {
        throw new Error('replay guard broken');
      },
    };
    const { owner, other } = await twoPods({ replays: broken });
    const token = owner.tokens.issue('t', 'ja');
    owner.server.closeAllConnections();
    await new Promise((resolve) => owner.server.close(resolve));
    expect((await post(other.url, { token, events: [{ type: 'chunk_reload' }] })).status).toBe(202);
    await vi.waitFor(() =>
      expect(other.logs().find((line) => line.msg === 'Telemetry request failed')).toMatchObject({ error: 'Error: replay guard broken' }),
    );
    expect(await relaysOf(other)).toEqual([['owner_gone', 1]]);
  });

  it('refuses a forged relay mark: a stranger cannot skip the origin check by claiming to be a pod', async () => {
    const { owner } = await twoPods();
    const token = owner.tokens.issue('t', 'ja');
    const response = await fetch(owner.url, {
      method: 'POST',
      body: JSON.stringify({ token, events: [{ type: 'chunk_reload' }] }),
      headers: { 'Content-Type': 'application/json', [RELAY_HEADER]: Buffer.alloc(32).toString('base64url') },
    });
    await expectError(response, 403);
    expect(await owner.rejected()).toEqual({ bad_relay: 1 });
    expect(await values(owner.metrics.clientEvents)).toEqual([]);
  });
});

describe('what a beacon records', () => {
  it("counts each kind once per page view: fetch failures by kind, locale failures and web vitals by the page view's locale, for the token's build", async () => {
    const { url, metrics } = await start();
    const events = [
      { type: 'locale_load_failed', locale: 'ja', namespace: 'home', cause: 'HTTP 503' },
      { type: 'manifest_fetch_failed', kind: 'manifest', buildId: 'b1', status: 503 },
      { type: 'manifest_fetch_failed', kind: 'latest' },
      { type: 'payload_fetch_failed', buildId: 'b1', status: 0, path: '/ja' },
      { type: 'web_vital', name: 'LCP', value: 2500, locale: 'ja', route: '/ja' },
      { type: 'web_vital', name: 'INP', value: 200, locale: 'en', route: '/' },
      { type: 'web_vital', name: 'CLS', value: 0.1, locale: 'fr', route: '/fr' },
      { type: 'web_vital', name: 'TTFB', value: 80, locale: 'en', route: '/' },
    ];
    // The body names this server's build; the token, a page of build b: the token wins.
    expect((await post(url, { build: 't', token: otherPage(), events })).status).toBe(204);
    // Another page view of build b, whose locale failure names a locale we do not have.
    expect(
      (await post(url, { token: otherPage(), events: [{ type: 'locale_load_failed', locale: 'xx', namespace: 'nope' }] })).status,
    ).toBe(204);

    const counts = async (metric: Parameters<typeof values>[0]) => (await values(metric)).map(({ labels, value }) => [labels, value]);
    expect(await counts(metrics.clientEvents)).toEqual([
      [{ event: 'locale_load_failed', page_build: 'other' }, 2],
      [{ event: 'manifest_fetch_failed', page_build: 'other' }, 2],
      [{ event: 'payload_fetch_failed', page_build: 'other' }, 1],
      [{ event: 'web_vital', page_build: 'other' }, 4],
    ]);
    expect(await counts(metrics.localeLoadFailures)).toEqual([
      [{ locale: 'ja', namespace: 'home', source: 'client', page_build: 'other' }, 1],
      [{ locale: 'other', namespace: 'other', source: 'client', page_build: 'other' }, 1],
    ]);
    expect(await counts(metrics.manifestFetchFailures)).toEqual([
      [{ kind: 'manifest', page_build: 'other' }, 1],
      [{ kind: 'payload', page_build: 'other' }, 1],
      [{ kind: 'latest', page_build: 'other' }, 1],
    ]);
    // Two page views failed: each counted once, however many failures it reported.
    expect(await counts(metrics.failedPageViews)).toEqual([[{ page_build: 'other' }, 2]]);
    const sumOf = async (metric: Metrics['webVitalLcp']) =>
      (await values(metric)).filter((value) => value.metricName?.endsWith('_sum')).map(({ labels, value }) => ({ labels, value }));
    expect(await sumOf(metrics.webVitalLcp)).toEqual([{ labels: { locale: 'zh-CN', page_build: 'other' }, value: 2.5 }]);
    expect(await sumOf(metrics.webVitalInp)).toEqual([{ labels: { locale: 'zh-CN', page_build: 'other' }, value: 0.2 }]);
    expect(await sumOf(metrics.webVitalCls)).toEqual([{ labels: { locale: 'zh-CN', page_build: 'other' }, value: 0.1 }]);
    expect(await counts(metrics.pageViews)).toEqual([[{ page_build: 'other' }, 1]]);
  });

  it('logs failures with their fixed messages, and other events at debug', async () => {
    const { url, logs } = await start();
    const events = [
      { type: 'locale_load_failed', locale: 'zh-CN', namespace: 'footer', cause: 'timeout' },
      { type: 'manifest_fetch_failed', kind: 'latest', buildId: 'b2', status: 404 },
      { type: 'payload_fetch_failed', buildId: 'b3' },
      { type: 'chunk_reload', reason: 'ChunkLoadError' },
      { type: 'build_update_detected', from: 'b1', to: 'b2' },
    ];
    expect((await post(url, { events })).status).toBe(204);
    const withoutBase = logs().map(({ pid, hostname, time, ...fields }) => fields);
    expect(withoutBase).toEqual([
      {
        level: 50,
        msg: 'Failed locale loading',
        locale: 'zh-CN',
        namespace: 'footer',
        cause: 'timeout',
        source: 'client',
        page_build: 'self',
      },
      { level: 40, msg: 'Manifest fetch failed', kind: 'latest', build_id: 'b2', status: 404, page_build: 'self' },
      { level: 40, msg: 'Manifest fetch failed', kind: 'payload', build_id: 'b3', page_build: 'self' },
      { level: 20, msg: 'Client event', event: 'chunk_reload', reason: 'ChunkLoadError' },
      { level: 20, msg: 'Client event', event: 'build_update_detected', from: 'b1', to: 'b2' },
    ]);
  });

  it('keeps log lines under 4 KiB with the longest strings JSON escapes worst', async () => {
    const { url, lines } = await start();
    const worst = (length: number) => '\u0001\ud800'.repeat(length / 2);
    // One beacon each: together they would be over 8 KiB, as each character is sent escaped too.
    const events = [
      { type: 'locale_load_failed', locale: worst(200), namespace: worst(200), cause: worst(500) },
      { type: 'manifest_fetch_failed', kind: 'manifest', buildId: worst(200), status: 599 },
      { type: 'build_update_detected', from: worst(200), to: worst(200) },
    ];
    for (const event of events) expect((await post(url, { events: [event] })).status).toBe(204);
    expect(lines).toHaveLength(3);
    expect(Math.max(...lines.map((line) => Buffer.byteLength(line)))).toBeGreaterThan(2400);
  });
});

describe('label values under random input', () => {
  it('stay the same set through 2 000 beacons of random strings', async () => {
    const { url, metrics } = await start();
    let seed = 42; // Park–Miller: the same "random" input on every run.
    const random = () => (seed = (seed * 16_807) % 2_147_483_647) / 2_147_483_647;
    const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
    const chars = Array.from('abcxyzABC-_/.:%?#0123 éж日本🙂\u0001');
    const text = () => Array.from({ length: random() < 0.02 ? 201 : Math.floor(random() * 30) }, () => pick(chars)).join('');
    const vitals = ['LCP', 'INP', 'CLS', 'FCP', 'TTFB'] as const;
    const events = [
      () => ({ type: 'locale_load_failed', locale: text(), namespace: text(), cause: text() }),
      () => ({ type: 'web_vital', name: pick(vitals), value: random() * 5000, locale: text(), route: text(), id: text() }),
      () => ({ type: 'manifest_fetch_failed', kind: pick(['manifest', 'latest']), buildId: text(), status: 404 }),
      () => ({ type: 'payload_fetch_failed', path: text(), buildId: text() }),
      () => ({ type: 'web_vital', name: text(), value: 1, locale: 'en', route: '/' }),
      () => ({ type: 'manifest_fetch_failed', kind: text() }),
      () => ({ type: text() }),
    ];
    const series = async () =>
      (await metrics.registry.getMetricsAsJSON())
        .filter((metric) => metric.name.startsWith('meridian_'))
        .flatMap((metric) => metric.values.map((value) => `${metric.name} ${JSON.stringify(value.labels)}`))
        .sort();

    // Every label value random strings can map to, once: each is 'other'.
    const warmUp = [
      { type: 'locale_load_failed', locale: '?', namespace: '?' },
      ...vitals.map((name) => ({ type: 'web_vital', name, value: 1, locale: '?', route: '?' })),
      { type: 'manifest_fetch_failed', kind: 'manifest' },
      { type: 'manifest_fetch_failed', kind: 'latest' },
      { type: 'payload_fetch_failed' },
    ];
    expect((await post(url, { events: warmUp })).status).toBe(204);
    const before = await series();

    const statuses = new Map<number, number>();
    for (let batch = 0; batch < 40; batch += 1) {
      const beacons = Array.from({ length: 50 }, () => ({
        events: Array.from({ length: 1 + Math.floor(random() * 3) }, () => pick(events)()),
      }));
      for (const response of await Promise.all(beacons.map((beacon) => post(url, beacon)))) {
        statuses.set(response.status, (statuses.get(response.status) ?? 0) + 1);
      }
    }
    expect(statuses.get(204)).toBeGreaterThan(200);
    expect(statuses.get(400)).toBeGreaterThan(200);
    expect((statuses.get(204) ?? 0) + (statuses.get(400) ?? 0)).toBe(2000);
    expect(await series()).toEqual(before);
  });
});
