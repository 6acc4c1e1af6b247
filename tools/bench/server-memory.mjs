// Memory growth of our entry under requests for paths it has never seen: a fresh server
// (metrics and info logging on, no tracing) is warmed up, its resident memory read, then
// it gets 50 000 requests for random paths, and after a short settle its RSS is read again.
// Next's server.js gets the same, as a reference.
// Each figure is read twice: as it is, which includes whatever garbage V8 has not
// collected yet (the luck of its schedule: 10 to 150 MB here), and after a full
// collection that a benchmark-only preload runs on SIGUSR2, which is what the target
// is checked against: memory the server holds on to, not garbage awaiting collection.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import path from 'node:path';
import { finished } from 'node:stream/promises';
import { heading, log, round } from './util.mjs';
import { rssMiB, scrapeMetrics, sleep, startNext, startOurs } from './bench-servers.mjs';

export const MEMORY_GROWTH_TARGET_MB = 30;
// V8 sizes its old generation during the first ~10 000 requests of this mix, then
// stays flat: the warm-up covers that, so the growth measured after it is the server's.
const WARMUP_REQUESTS = 10_000;
const LOAD_REQUESTS = 50_000;
const CONNECTIONS = 10;
const SETTLE_MS = 3000;

const COLLECT_GARBAGE = ['--expose-gc', '--require', path.join(import.meta.dirname, 'collect-garbage-on-signal.cjs')];
const COLLECTION_PAUSE_MS = 1000;

const random = () => randomBytes(8).toString('hex');
/** Pages that do not exist (the 404 page renders), static files and data files that do not exist. */
/** @type {[{ name: string, make: () => string }, ...{ name: string, make: () => string }[]]} */
const RANDOM_KINDS = [
  { name: '/<random>', make: () => `/${random()}` },
  { name: '/ja/<random>', make: () => `/ja/${random()}` },
  { name: '/_next/static/<random>.js', make: () => `/_next/static/${random()}.js` },
  { name: '/<random>.json', make: () => `/${random()}.json` },
];
/**
 * @template T
 * @param {readonly [T, ...T[]]} list
 */
const pick = (list) => list[Math.floor(Math.random() * list.length)] ?? list[0];
export const randomPath = () => pick(RANDOM_KINDS).make();
/** @type {[string, ...string[]]} */
const FIXED = ['/', '/ja', '/no-such-page', '/robots.txt', '/healthz'];
/** Warm-up: the known pages and the random kinds, half each, so every code path has run. */
export const warmupPath = () => (Math.random() < 0.5 ? pick(FIXED) : randomPath());

/**
 * `total` GET requests over CONNECTIONS keep-alive connections; counts the statuses.
 * @param {string} baseUrl
 * @param {number} total
 * @param {() => string} pickPath
 */
export async function send(baseUrl, total, pickPath) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  /** @type {Record<number, number>} */
  const statuses = {};
  let started = 0;
  let errors = 0;
  const one = (/** @type {string} */ target) =>
    new Promise((resolve) => {
      const failed = () => {
        errors += 1;
        resolve(undefined);
      };
      const req = http.get(baseUrl + target, { agent }, (res) => {
        const status = res.statusCode ?? 0;
        statuses[status] = (statuses[status] ?? 0) + 1;
        res.resume();
        finished(res).then(resolve, failed);
      });
      req.on('error', failed);
    });
  const worker = async () => {
    while (started < total) {
      started += 1;
      await one(pickPath());
    }
  };
  const startedAt = Date.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, worker));
  agent.destroy();
  return { requests: started, statuses, errors, seconds: round((Date.now() - startedAt) / 1000, 1) };
}

/** @typedef {import('./bench-servers.mjs').BenchServer & { metricsUrl?: string }} MeasuredServer */

/**
 * RSS, and for our entry (which has a metrics port) the V8 heap in use.
 * @param {MeasuredServer} server
 */
async function snapshot(server) {
  const metrics = server.metricsUrl ? await scrapeMetrics(server.metricsUrl, ['nodejs_heap_size_used_bytes']) : {};
  const heap = metrics['nodejs_heap_size_used_bytes'] ?? null;
  return { rssMB: round(rssMiB(server.pid), 1), heapUsedMB: heap === null ? null : round(heap / 1048576, 1) };
}

/**
 * The figures as they are, then after a full garbage collection.
 * @param {MeasuredServer} server
 */
async function reading(server) {
  const raw = await snapshot(server);
  process.kill(server.pid, 'SIGUSR2');
  await sleep(COLLECTION_PAUSE_MS);
  return { ...(await snapshot(server)), raw };
}

/**
 * Warm-up, reading, load, reading, on a fresh server from `start()`.
 * @param {string} label
 * @param {() => Promise<MeasuredServer>} start
 */
async function growthUnderLoad(label, start) {
  log(`  ${label}:`);
  const server = await start();
  try {
    const warmup = await send(server.url, WARMUP_REQUESTS, warmupPath);
    log(
      `    warm-up: ${warmup.requests} requests in ${warmup.seconds} s, statuses ${JSON.stringify(warmup.statuses)}, errors ${warmup.errors}`,
    );
    await sleep(SETTLE_MS);
    const before = await reading(server);
    const load = await send(server.url, LOAD_REQUESTS, randomPath);
    log(`    load: ${load.requests} requests in ${load.seconds} s, statuses ${JSON.stringify(load.statuses)}, errors ${load.errors}`);
    await sleep(SETTLE_MS);
    const after = await reading(server);
    const growthMB = round(after.rssMB - before.rssMB, 1);
    const rawGrowthMB = round(after.raw.rssMB - before.raw.rssMB, 1);
    const heap = (/** @type {{ heapUsedMB: number | null }} */ r) => (r.heapUsedMB === null ? '' : ` (heap used ${r.heapUsedMB} MB)`);
    log(`    as read: RSS ${before.raw.rssMB}${heap(before.raw)} -> ${after.raw.rssMB}${heap(after.raw)}: growth ${rawGrowthMB} MB`);
    log(`    after a full GC: RSS ${before.rssMB}${heap(before)} -> ${after.rssMB}${heap(after)}: growth ${growthMB} MB`);
    return { warmup, load, before, after, growthMB, rawGrowthMB };
  } finally {
    await server.stop();
  }
}

/**
 * Our entry against the target; Next's server.js under the same load as a reference, since
 * Next's own caches and a heap V8 has not collected yet are part of any such growth.
 */
export async function measureServerMemory() {
  heading(`Server memory: ${LOAD_REQUESTS} requests for random paths`);
  log(
    `  random kinds (equal shares): ${RANDOM_KINDS.map((k) => k.name).join(', ')}; ${CONNECTIONS} keep-alive ` +
      `connections; RSS from /proc/<pid>/status after ${SETTLE_MS / 1000} s settles (MB = MiB), as read and after a full GC`,
  );
  const ours = await growthUnderLoad('our entry (metrics, info logging)', () =>
    startOurs({ name: 'ours (memory)', nodeArgs: COLLECT_GARBAGE }),
  );
  const next = await growthUnderLoad("Next's server.js (reference)", () => startNext({ nodeArgs: COLLECT_GARBAGE }));
  log(
    `  after a full GC, our entry grew ${ours.growthMB} MB (target < ${MEMORY_GROWTH_TARGET_MB} MB); ` +
      `Next's server.js grew ${next.growthMB} MB`,
  );
  return { ...ours, targetMB: MEMORY_GROWTH_TARGET_MB, next };
}
