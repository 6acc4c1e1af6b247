// Processes for the server-overhead stage: Next's own standalone server.js and our entry
// serving the same build, a local OTLP/HTTP receiver for the tracing variant, and
// memory readings. Unlike startApp (tools/lib/app-server.mjs), which keeps its output's tail,
// these servers' stdout is read and thrown away once they are ready: our entry logs
// one JSON line per request, and a pipe nobody drains would block it.
import { spawn, spawnSync } from 'node:child_process';
import dns from 'node:dns/promises';
import { once } from 'node:events';
import { readFileSync } from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { SERVER_CONFIG_VARIABLES } from '../../src/server/config-variables.mjs';
import { ROOT, SERVER_ENTRY } from '../lib/app-server.mjs';
import { freePort } from './util.mjs';

/** @typedef {Partial<Record<import('../../src/server/config-variables.mjs').ServerConfigVariable, string>>} ServerSettings */

export const STANDALONE = path.join(ROOT, '.next/standalone');
const NEXT_ENTRY = path.join(STANDALONE, 'server.js');
const OUR_ENTRY = path.join(ROOT, SERVER_ENTRY);

/** What Next's standalone server.js reads (its template is in next/dist/build/utils.js). */
export const NEXT_SERVER_VARIABLES = ['PORT', 'HOSTNAME', 'KEEP_ALIVE_TIMEOUT', '__NEXT_PRIVATE_STANDALONE_CONFIG'];
/**
 * The V8 flags the image starts our entry with: the node arguments of the Dockerfile's
 * ENTRYPOINT (its exec form) before the entry, so the bench measures what runs in a pod.
 * @param {string} dockerfile the Dockerfile's text
 * @returns {string[]}
 */
export function entrypointNodeArgs(dockerfile) {
  const form = /^ENTRYPOINT\s+(\[.*\])\s*$/m.exec(dockerfile)?.[1];
  if (!form) throw new Error('Dockerfile: no ENTRYPOINT in exec form');
  const [command, ...args] = /** @type {string[]} */ (JSON.parse(form));
  const entry = args.indexOf(path.basename(SERVER_ENTRY));
  if (command !== 'node' || entry === -1) throw new Error(`Dockerfile: the ENTRYPOINT runs ${form}, not node with our entry`);
  return args.slice(0, entry);
}

/** Settings of either server that the caller's shell must not leak into a variant (and OTEL_*, below). */
const SERVER_KEYS = new Set([...SERVER_CONFIG_VARIABLES, ...NEXT_SERVER_VARIABLES]);
/** @type {Set<import('node:child_process').ChildProcess>} */
const live = new Set();

export const sleep = (/** @type {number} */ ms) => new Promise((resolve) => setTimeout(resolve, ms));

function cleanEnv() {
  return Object.fromEntries(Object.entries(process.env).filter(([key]) => !key.startsWith('OTEL_') && !SERVER_KEYS.has(key)));
}

/** Ends every server this module started (synchronous: safe in an 'exit' handler). */
export function killBenchServers() {
  for (const child of live) child.kill('SIGTERM');
}

/**
 * @param {string} url
 * @param {number} [timeoutMs]
 */
async function waitForOk(url, timeoutMs = 60_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const response = await fetch(url, { redirect: 'manual' });
      await response.arrayBuffer();
      if (response.status === 200) return;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) throw new Error(`${url} did not answer 200 within ${timeoutMs} ms`);
    await sleep(100);
  }
}

/**
 * @typedef {object} BenchServer
 * @property {string} name
 * @property {string} url
 * @property {number} pid
 * @property {() => Promise<void>} stop
 */

/**
 * Spawns `node <entry>` in the standalone folder; resolves once `readyPath` answers 200.
 * @param {{ name: string, entry: string, port: number, env: Record<string, string | undefined>, readyPath: string, nodeArgs?: string[], host?: string }} options
 * @returns {Promise<BenchServer>}
 */
async function spawnServer({ name, entry, port, env, readyPath, nodeArgs = [], host = '127.0.0.1' }) {
  const child = spawn(process.execPath, [...nodeArgs, entry], {
    cwd: STANDALONE,
    env: { ...cleanEnv(), NODE_ENV: 'production', PORT: String(port), HOSTNAME: '127.0.0.1', ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  live.add(child);
  let startup = '';
  const collect = (/** @type {Buffer} */ chunk) => {
    startup = (startup + chunk).slice(-4000);
  };
  child.stdout.on('data', collect);
  const exited = once(child, 'exit');
  void exited.then(() => live.delete(child));
  const died = exited.then(([code, signal]) => {
    throw new Error(`${name} exited with ${code ?? signal} before it was ready; its last output:\n${startup}`);
  });
  died.catch(() => {});
  const url = `http://${host}:${port}`;
  try {
    await Promise.race([waitForOk(url + readyPath), died]);
  } catch (error) {
    child.kill('SIGKILL');
    throw error;
  }
  child.stdout.off('data', collect);
  child.stdout.resume(); // from here on: read and discard, never block the server
  return {
    name,
    url,
    pid: pidOf(child),
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      await exited;
    },
  };
}

/**
 * (a) Next's own standalone server.js: it serves .next/static and public/ from the standalone
 * folder. HOSTNAME=localhost, not 127.0.0.1: Next resolves the proxy's rewrites against
 * http://<HOSTNAME>:<PORT>, while the proxy's URLs name any loopback host "localhost", so with
 * 127.0.0.1 every locale rewrite (/ -> /en, /no-such-page -> /en/no-such-page) looks
 * external and is answered with a 308 to itself (src/server/next-app.ts passes
 * hostname 'localhost' to Next for the same reason). localhost binds the loopback address
 * dns.lookup gives first, which is where wrk is sent.
 * @param {{ nodeArgs?: string[] }} [options]
 */
export async function startNext({ nodeArgs } = {}) {
  const { address, family } = await dns.lookup('localhost');
  return spawnServer({
    nodeArgs,
    name: "Next's server.js",
    entry: NEXT_ENTRY,
    port: await freePort(),
    env: { HOSTNAME: 'localhost' },
    host: family === 6 ? `[${address}]` : address,
    readyPath: '/robots.txt',
  });
}

/**
 * The settings our entry gets in every variant: metrics on `metricsPort`, info logging, and
 * tracing to `otlpEndpoint` when there is one. SHUTDOWN_DELAY_MS=0 only shortens stop(); it
 * plays no part in serving.
 * @param {{ metricsPort: number, otlpEndpoint?: string }} options
 * @returns {ServerSettings}
 */
export function ourSettings({ metricsPort, otlpEndpoint }) {
  return {
    METRICS_PORT: String(metricsPort),
    LOG_LEVEL: 'info',
    SHUTDOWN_DELAY_MS: '0',
    ...(otlpEndpoint ? { OTEL_EXPORTER_OTLP_ENDPOINT: otlpEndpoint } : {}),
  };
}

/**
 * (b) our entry, metrics and info logging on; (c) the same with tracing to `otlpEndpoint`.
 * Started with the image's node arguments unless `nodeArgs` says otherwise.
 * @param {{ name?: string, otlpEndpoint?: string, nodeArgs?: string[], env?: ServerSettings }} [options]
 * @returns {Promise<BenchServer & { metricsUrl: string }>}
 */
export async function startOurs({
  name = 'ours',
  otlpEndpoint,
  nodeArgs = entrypointNodeArgs(readFileSync(path.join(ROOT, 'Dockerfile'), 'utf8')),
  env = {},
} = {}) {
  const port = await freePort();
  const metricsPort = await freePort();
  const settings = { ...ourSettings({ metricsPort, otlpEndpoint }), ...env };
  // glibc's arenas as the image sets them (Dockerfile), for the server and its renderer alike.
  const server = await spawnServer({
    name,
    entry: OUR_ENTRY,
    port,
    env: { ...settings, MALLOC_ARENA_MAX: '2' },
    readyPath: '/readyz',
    nodeArgs,
  });
  return { ...server, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` };
}

/**
 * A stand-in OTLP/HTTP collector: POST /v1/traces is read to the end and answered
 * 200 `{}` at once (nothing is parsed); counts exports and bytes.
 */
export async function startOtlpReceiver() {
  const stats = { exports: 0, bytes: 0, otherRequests: 0 };
  const server = http.createServer((req, res) => {
    const isTraces = req.method === 'POST' && (req.url ?? '').split('?')[0] === '/v1/traces';
    req.on('data', (chunk) => {
      stats.bytes += chunk.length;
    });
    req.on('end', () => {
      if (isTraces) stats.exports += 1;
      else stats.otherRequests += 1;
      res.writeHead(isTraces ? 200 : 404, { 'Content-Type': 'application/json' });
      res.end(isTraces ? '{}' : '{"error":"not found"}');
    });
  });
  await new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve(undefined));
  });
  const { port } = /** @type {import('node:net').AddressInfo} */ (server.address());
  return {
    endpoint: `http://127.0.0.1:${port}`,
    stats,
    close: () =>
      new Promise((resolve) => {
        server.close(() => resolve(undefined));
        server.closeAllConnections();
      }),
  };
}

/**
 * The pid of a child that started (Node leaves it undefined only when the spawn failed).
 * @param {import('node:child_process').ChildProcess} child
 */
export function pidOf(child) {
  if (child.pid === undefined) throw new Error(`${child.spawnfile} has no pid: it did not start`);
  return child.pid;
}

/**
 * Resident memory of a process in MiB, from /proc/<pid>/status (VmRSS, in kB).
 * @param {number} pid
 */
export function rssMiB(pid) {
  const match = /^VmRSS:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  if (!match) throw new Error(`no VmRSS in /proc/${pid}/status`);
  return Number(match[1]) / 1024;
}

const CLOCK_TICKS_PER_S = Number(spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim()) || 100;

/**
 * CPU time (user + system) a process has used so far, in ms, from /proc/<pid>/stat.
 * @param {number} pid
 */
export function cpuMs(pid) {
  const fields = (readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1] ?? '').split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_S;
}

/**
 * Values of unlabelled samples of a Prometheus text exposition, by metric name.
 * @param {string} url
 * @param {readonly string[]} names
 */
export async function scrapeMetrics(url, names) {
  const response = await fetch(url);
  const text = await response.text();
  /** @type {Record<string, number | null>} */
  const values = {};
  for (const name of names) {
    const match = new RegExp(`^${name}(?:\\{[^}]*\\})? ([0-9.e+-]+)`, 'm').exec(text);
    values[name] = match ? Number(match[1]) : null;
  }
  return values;
}
