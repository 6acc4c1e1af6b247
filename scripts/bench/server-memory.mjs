// Memory growth of our entry under requests for paths it has never seen: a fresh server
// (metrics and info logging on, no tracing) is warmed up, its resident memory read, then
// it gets 50 000 requests for random paths, and after a short settle its RSS is read again.
// No GC is forced (none can be from outside), so the growth includes garbage not yet
// collected; a leak shows as growth well beyond that.
import { randomBytes } from 'node:crypto';
import http from 'node:http';
import { finished } from 'node:stream/promises';
import { heading, log, round } from './util.mjs';
import { rssMiB, scrapeMetrics, sleep, startOurs } from './bench-servers.mjs';

export const MEMORY_GROWTH_TARGET_MB = 30;
const WARMUP_REQUESTS = 2000;
const LOAD_REQUESTS = 50_000;
const CONNECTIONS = 10;
const SETTLE_MS = 3000;

const random = () => randomBytes(8).toString('hex');
/** Pages that do not exist (the 404 page renders), static files and data files that do not exist. */
const RANDOM_KINDS = [
  { name: '/<random>', make: () => `/${random()}` },
  { name: '/ja/<random>', make: () => `/ja/${random()}` },
  { name: '/_next/static/<random>.js', make: () => `/_next/static/${random()}.js` },
  { name: '/<random>.json', make: () => `/${random()}.json` },
];
const randomPath = () => RANDOM_KINDS[Math.floor(Math.random() * RANDOM_KINDS.length)].make();
const FIXED = ['/', '/ja', '/no-such-page', '/robots.txt', '/healthz'];
/** Warm-up: the known pages and the random kinds, half each, so every code path has run. */
const warmupPath = () => (Math.random() < 0.5 ? FIXED[Math.floor(Math.random() * FIXED.length)] : randomPath());

/** `total` GET requests over CONNECTIONS keep-alive connections; counts the statuses. */
async function send(baseUrl, total, pickPath) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });
  const statuses = {};
  let started = 0;
  let errors = 0;
  const one = (target) =>
    new Promise((resolve) => {
      const req = http.get(baseUrl + target, { agent }, (res) => {
        statuses[res.statusCode] = (statuses[res.statusCode] ?? 0) + 1;
        res.resume();
        finished(res).then(resolve, () => {
          errors += 1;
          resolve();
        });
      });
      req.on('error', () => {
        errors += 1;
        resolve();
      });
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

async function reading(server) {
  const metrics = await scrapeMetrics(server.metricsUrl, ['nodejs_heap_size_used_bytes', 'process_resident_memory_bytes']);
  const mib = (bytes) => (bytes === null ? null : round(bytes / 1048576, 1));
  return { rssMB: round(rssMiB(server.pid), 1), heapUsedMB: mib(metrics.nodejs_heap_size_used_bytes) };
}

export async function measureServerMemory() {
  heading(`Server memory: our entry under ${LOAD_REQUESTS} requests for random paths`);
  log(`  random kinds (equal shares): ${RANDOM_KINDS.map((k) => k.name).join(', ')}; ` +
    `${CONNECTIONS} keep-alive connections; RSS from /proc/<pid>/status after ${SETTLE_MS / 1000} s settles (MB = MiB)`);
  const server = await startOurs({ name: 'ours (memory)' });
  try {
    const warmup = await send(server.url, WARMUP_REQUESTS, warmupPath);
    log(`  warm-up: ${warmup.requests} requests in ${warmup.seconds} s, statuses ${JSON.stringify(warmup.statuses)}, errors ${warmup.errors}`);
    await sleep(SETTLE_MS);
    const before = await reading(server);
    log(`  warmed up:  RSS ${before.rssMB} MB, heap used ${before.heapUsedMB} MB`);
    const load = await send(server.url, LOAD_REQUESTS, randomPath);
    log(`  load: ${load.requests} requests in ${load.seconds} s, statuses ${JSON.stringify(load.statuses)}, errors ${load.errors}`);
    await sleep(SETTLE_MS);
    const after = await reading(server);
    const growthMB = round(after.rssMB - before.rssMB, 1);
    log(`  after:      RSS ${after.rssMB} MB, heap used ${after.heapUsedMB} MB`);
    log(`  RSS growth: ${growthMB} MB (target < ${MEMORY_GROWTH_TARGET_MB} MB)`);
    return { warmup, load, before, after, growthMB, targetMB: MEMORY_GROWTH_TARGET_MB };
  } finally {
    await server.stop();
  }
}
