import { METHODS as PARSED_METHODS } from 'node:http';
import path from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { comparableHeaders } from '../support/head-parity';
import { eventually, parseSeries, scrape, valueOf } from '../support/http';
import { rawRequest } from '../support/raw-http';
import { jsonLines, startServer, type RunningServer } from '../support/server-process';

// Seeded random requests against the built server, sent as raw bytes. A failure
// prints the seed and each failing request; MERIDIAN_FUZZ_SEED=<seed> replays them.
const SEED = Number(process.env.MERIDIAN_FUZZ_SEED ?? 20_260_513);
const RUNS = 5000;
/** Of those, sent to a second server that trusts loopback as its proxy, so forwarded headers take the trusted path. */
const TRUSTING_RUNS = 1000;
const CONCURRENCY = 4;
const SLOWEST_MS = 2000;
/** (method, route, status) label sets the request histogram may hold after all this: bounded by the fixed sets. */
const MAX_REQUEST_SERIES = 250;
/** Growth after a full collection that still counts as back to the baseline: the V8 heap, and memory outside it (buffers). */
const MAX_HEAP_GROWTH_BYTES = 16 * 1024 * 1024;
const MAX_EXTERNAL_GROWTH_BYTES = 8 * 1024 * 1024;

const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH', 'OPTIONS', 'TRACE', 'TRACK', 'CONNECT', 'PROPFIND', 'MKCOL', 'PURGE'];
const STARTS = [
  '/',
  '/ja',
  '/zh-CN',
  '/en',
  '/ZH-cn',
  '/builds/latest.json',
  '/builds/meta/x.json',
  '/_next/static/chunks/',
  '/_next/image',
  '/_next/data/',
  '/api/telemetry',
  '/healthz',
  '/readyz',
  '/metrics',
  '/sitemap.xml',
  '/robots.txt',
  '/favicon.ico',
  '/favicon.svg',
];
const SEGMENTS = [
  '',
  '.',
  '..',
  '%2e%2e',
  '%2E.',
  '%2F',
  '%2f..%2f',
  '%00',
  '%C0%AF',
  '%E0%80%AF',
  '%C0%AE%C0%AE',
  '%FF',
  '%ED%A0%80',
  '%F4%90%80%80',
  '%',
  '%zz',
  '/',
  '\\',
  'evil.example',
  '@evil.example',
  'ja',
  'index.html',
  'page.json',
  '_payload.json',
  'a b',
  '\u0000',
  '\u00ff\u00fe',
  '\u00c3\u00a9',
  '%E6%97%A5%E6%9C%AC',
  '~',
  '*',
  'https:',
  ':443',
];

const printable = fc.string({ unit: fc.integer({ min: 0x20, max: 0xff }).map((code) => String.fromCharCode(code)), maxLength: 80 });
const oneOf = (values: string[]) => fc.oneof(fc.constantFrom(...values), printable);

const target = fc.oneof(
  {
    weight: 8,
    arbitrary: fc
      .tuple(
        fc.constantFrom(...STARTS),
        fc.array(fc.oneof(fc.constantFrom(...SEGMENTS), fc.webSegment()), { maxLength: 6 }),
        fc.option(fc.constantFrom('?_rsc=1', '?x=1', '?', '?%FF=%00', '#x', '?a=b&a=c'), { nil: '' }),
      )
      .map(([start, segments, query]) => `${start}${segments.length && !start.endsWith('/') ? '/' : ''}${segments.join('/')}${query}`),
  },
  {
    weight: 1,
    arbitrary: fc.constantFrom(
      `/${'a'.repeat(8192)}`,
      `/ja/${'%C0%AF'.repeat(1300)}`,
      `//${'x'.repeat(4000)}`,
      '//evil.example',
      '/\\evil.example',
      'http://evil.example/',
      '*',
      'evil.example:443',
    ),
  },
);

const headers = fc.record(
  {
    Host: oneOf(['127.0.0.1', 'evil.example', 'evil.example:443', '', 'a'.repeat(2000), '[::1]', 'localhost:3000@evil.example']),
    'Accept-Language': oneOf(['ja', 'zh-CN;q=0.9, en;q=0.1', '*', 'zh-cn', 'en-US,en;q=0.9', 'ja;q=abc', ';;;', 'x'.repeat(4000)]),
    Cookie: oneOf(['i18n_redirected=ja', 'i18n_redirected=zz', 'i18n_redirected=', '=;=;', 'i18n_redirected=%FF', `a=${'b'.repeat(4000)}`]),
    'Accept-Encoding': oneOf(['br;q=0, gzip', 'identity;q=0', '*;q=0', '*', 'gzip;q=abc', 'br, br, br', 'zstd']),
    'If-None-Match': oneOf(['*', 'W/"x"', '"a", "b"', 'W/', '"', '""', '*, "a"']),
    'If-Modified-Since': oneOf(['Sat, 29 Oct 1994 19:43:31 GMT', 'tomorrow', '0']),
    Range: oneOf([
      'bytes=0-9',
      'bytes=-5',
      'bytes=999999999-',
      'bytes=abc',
      'bytes=0-1,3-4,0-1',
      'bytes=5-1',
      'items=1-2',
      `bytes=${'0-1,'.repeat(500)}`,
    ]),
    'X-Forwarded-For': oneOf(['198.51.100.1', '1.1.1.1, 2.2.2.2', 'garbage', '::1', `${'10.0.0.1, '.repeat(300)}`]),
    'X-Forwarded-Proto': oneOf(['https', 'http', 'gopher', 'https, http']),
    'X-Forwarded-Host': oneOf(['evil.example', 'evil.example:443', '']),
    Referer: oneOf(['https://evil.example/', 'javascript:alert(1)', '/ja', '']),
    Accept: oneOf(['text/html', '*/*', 'application/json']),
    // The router's own requests take another path through the server than page loads.
    RSC: oneOf(['1', '0']),
    'Next-Router-Prefetch': oneOf(['1']),
    'Next-Router-State-Tree': oneOf(['%5B%22%22%5D', '[[[[', '%ZZ', '{}']),
  },
  { requiredKeys: [] },
);

const method = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...METHODS) },
  { weight: 1, arbitrary: fc.stringMatching(/^[A-Z][A-Z-]{0,11}$/) },
);
const requestCase = fc.record({ method, target, headers });

type Case = { method: string; target: string; headers: Partial<Record<string, string>> };

function bytesOf(item: Case): string {
  const lines = [`${item.method} ${item.target} HTTP/1.1`];
  const sent = { Host: '127.0.0.1', ...item.headers };
  for (const [name, value] of Object.entries(sent)) lines.push(`${name}: ${value}`);
  if (['POST', 'PUT', 'PATCH'].includes(item.method)) lines.push('Content-Type: application/json', 'Content-Length: 2');
  lines.push('Connection: close', '', item.method === 'POST' || item.method === 'PUT' || item.method === 'PATCH' ? '{}' : '');
  return lines.join('\r\n');
}

/**
 * A redirect stays on the site: a path, never `//host` nor `/\host`. Our redirects are
 * relative, so any absolute URL (even one naming the request's own Host, which the
 * visitor writes) is off the site.
 */
function offSite(location: string | undefined): boolean {
  return location !== undefined && !/^\/(?![/\\])/.test(location);
}

let server: RunningServer;
let trustingServer: RunningServer;
const portOf = (running: RunningServer) => Number(new URL(running.url).port);

beforeAll(async () => {
  const env = { TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000' };
  [server, trustingServer] = await Promise.all([
    // A full collection on SIGUSR2, so memory can be compared with its baseline (the server's code is unchanged).
    startServer({ ...env, NODE_OPTIONS: `--expose-gc --require ${path.join(ROOT, 'tools', 'bench', 'collect-garbage-on-signal.cjs')}` }),
    startServer({ ...env, TRUST_PROXY: 'loopback' }),
  ]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), trustingServer?.stop()]);
});

async function memoryAfterCollection(): Promise<{ heap: number; external: number }> {
  server.kill('SIGUSR2');
  // The signal is handled between two turns of the server's loop; a scrape after it reads the collected heap.
  await new Promise((resolve) => setTimeout(resolve, 300));
  const metrics = await scrape(server);
  return {
    heap: valueOf(metrics, 'nodejs_heap_size_used_bytes') ?? Number.NaN,
    external: valueOf(metrics, 'nodejs_external_memory_bytes') ?? Number.NaN,
  };
}

/**
 * The same target and headers as a GET and as a HEAD: the HEAD must carry the GET's headers
 * and no body (RFC 9110 §9.3.2). Range is defined for GET only (§14.2), so a HEAD ignores it:
 * where the GET got a part (206, 416), the HEAD is held to the GET without Range.
 */
async function compareHeadWithGet(port: number, item: Case, show: () => string, failures: string[]): Promise<void> {
  const head = await rawRequest(port, bytesOf({ ...item, method: 'HEAD' }));
  let get = await rawRequest(port, bytesOf({ ...item, method: 'GET' }));
  if (get.status === 206 || get.status === 416) {
    const { Range: _range, ...withoutRange } = item.headers;
    get = await rawRequest(port, bytesOf({ ...item, method: 'GET', headers: withoutRange }));
  }
  if (head.body !== '') failures.push(`HEAD with a body for ${show()}`);
  const expected = JSON.stringify({ status: get.status, headers: comparableHeaders(get.headers) });
  const actual = JSON.stringify({ status: head.status, headers: comparableHeaders(head.headers) });
  if (actual !== expected) failures.push(`HEAD ${actual} differs from GET ${expected} for ${show()}`);
}

/**
 * A 501 is the answer to a method token Node's parser does not know, or a transfer coding
 * before `chunked` (RFC 9110 §15.6.2): what the server does not implement, not its fault.
 */
function notImplemented(item: Case, status: number): boolean {
  if (status !== 501) return false;
  return !PARSED_METHODS.includes(item.method) || /,\s*chunked\s*$/i.test(item.headers['Transfer-Encoding'] ?? '');
}

/** Sends `cases` (drawn with `seed`, named in each failure) to the server on `port`, and each one's GET and HEAD. */
async function send(port: number, seed: number, cases: Case[], failures: string[]): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < cases.length) {
      const index = next++;
      const item = cases[index] as Case;
      const bytes = bytesOf(item);
      const show = () =>
        `port ${port}, seed ${seed} case ${index}: ${JSON.stringify(bytes.length > 600 ? `${bytes.slice(0, 600)}…` : bytes)}`;
      try {
        const reply = await rawRequest(port, bytes);
        if (reply.status >= 500 && !notImplemented(item, reply.status)) failures.push(`${reply.status} for ${show()}`);
        if (reply.durationMs > SLOWEST_MS) failures.push(`${Math.round(reply.durationMs)} ms for ${show()}`);
        if (offSite(reply.headers.location)) failures.push(`redirect to ${reply.headers.location} for ${show()}`);
        await compareHeadWithGet(port, item, show, failures);
      } catch (error) {
        failures.push(`${String(error)} for ${show()}`);
      }
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
}

describe(`fuzzed requests (seed ${SEED})`, () => {
  it(`answer ${RUNS} random requests (and ${TRUSTING_RUNS} to a server trusting loopback as its proxy) without a 5xx, a slow answer, an off-site redirect, a HEAD unlike its GET, an unbounded series, an error log or a leak`, async () => {
    // Warm-up with another seed: the caches and lazy modules a first visit fills are not a leak.
    const warmUpFailures: string[] = [];
    await send(portOf(server), SEED + 1, fc.sample(requestCase, { seed: SEED + 1, numRuns: 500 }), warmUpFailures);
    const baseline = await memoryAfterCollection();

    const failures: string[] = [...warmUpFailures];
    await Promise.all([
      send(portOf(server), SEED, fc.sample(requestCase, { seed: SEED, numRuns: RUNS }), failures),
      send(portOf(trustingServer), SEED + 2, fc.sample(requestCase, { seed: SEED + 2, numRuns: TRUSTING_RUNS }), failures),
    ]);
    expect(failures.slice(0, 20), `${failures.length} failing requests`).toEqual([]);

    for (const running of [server, trustingServer]) {
      const requestSeries = new Set(
        parseSeries(await scrape(running))
          .filter((series) => series.name === 'http_server_request_duration_seconds_count')
          .map((series) => series.key),
      );
      expect(requestSeries.size).toBeLessThanOrEqual(MAX_REQUEST_SERIES);
      const errors = jsonLines(running).filter((line) => Number(line.level) >= 50);
      expect(errors.slice(0, 5)).toEqual([]);
    }

    // The last answers' sockets and compression streams are released a moment after them (about
    // 10 MB outside the heap in one run of three): a leak is what is still held seconds later.
    await eventually(
      async () => {
        const after = await memoryAfterCollection();
        expect(after.heap - baseline.heap).toBeLessThan(MAX_HEAP_GROWTH_BYTES);
        expect(after.external - baseline.external).toBeLessThan(MAX_EXTERNAL_GROWTH_BYTES);
      },
      15_000,
      1_000,
    );
  }, 240_000);
});
