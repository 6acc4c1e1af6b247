// /ja against its ceiling: wrk with one thread and 10
// connections, --ceiling-rounds (default 3) alternating rounds of --duration-s
// against (a) a bare node:http server sending the bytes and headers our entry sends for
// /ja (bare-server.cjs), (b) our entry with its defaults (access log on), (c) our entry
// with the access log off (LOG_LEVEL=warn), (d) Next's own standalone server.js. Also the
// peak resident memory (VmHWM) of our entry after its /ja runs.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort, heading, log, median, round } from './util.mjs';
import { pidOf, startNext, startOurs } from './bench-servers.mjs';
import { runWrk } from './throughput.mjs';

export const CEILING_SHARE_TARGET = 0.75;
const PAGE = '/ja';
const DROPPED_HEADERS = new Set(['date', 'connection', 'keep-alive', 'content-length', 'transfer-encoding']);

/**
 * Peak resident memory of a process in MiB (VmHWM in /proc/<pid>/status).
 * @param {number} pid
 */
export function peakRssMiB(pid) {
  const match = /^VmHWM:\s+(\d+)\s+kB/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'));
  return match ? round(Number(match[1]) / 1024, 1) : null;
}

/**
 * @param {CapturedResponse} response
 * @returns {Promise<BenchServer>}
 */
async function startBare(response) {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-bare-'));
  const file = path.join(dir, 'response.json');
  writeFileSync(file, JSON.stringify(response));
  const port = await freePort();
  const child = spawn(process.execPath, [path.join(import.meta.dirname, 'bare-server.cjs'), file, String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  await once(child.stdout, 'data');
  child.stdout.resume();
  return {
    name: 'bare node:http',
    url: `http://127.0.0.1:${port}`,
    pid: pidOf(child),
    async stop() {
      child.kill('SIGTERM');
      await once(child, 'exit');
    },
  };
}

/** @typedef {import('./bench-servers.mjs').BenchServer} BenchServer */
/** @typedef {import('./throughput.mjs').WrkRun} WrkRun */
/** @typedef {{ status: number, headers: Record<string, string>, body: string, bytes: number }} CapturedResponse */
/** @typedef {'bare' | 'ours' | 'quiet' | 'next'} ServerId */

/**
 * What our entry sends for /ja to a client like wrk (no Accept-Encoding): status, headers, bytes.
 * @param {string} url
 * @returns {Promise<CapturedResponse>}
 */
async function captureResponse(url) {
  const response = await fetch(url, { headers: { 'accept-encoding': 'identity' } });
  const body = Buffer.from(await response.arrayBuffer());
  const headers = Object.fromEntries([...response.headers].filter(([name]) => !DROPPED_HEADERS.has(name)));
  return { status: response.status, headers, body: body.toString('base64'), bytes: body.length };
}

/** @param {{ durationS: number, warmupS: number, rounds: number }} options */
export async function measureCeiling({ durationS, warmupS, rounds }) {
  heading(`${PAGE} against a bare node:http server and Next's server.js (wrk, 1 thread, 10 connections)`);
  /** @type {BenchServer[]} */
  const started = [];
  /** @type {<T extends BenchServer>(server: T) => T} */
  const track = (server) => {
    started.push(server);
    return server;
  };
  try {
    const ours = track(await startOurs({ name: 'ours (access log on)' }));
    const quiet = track(await startOurs({ name: 'ours (access log off)', env: { LOG_LEVEL: 'warn' } }));
    const next = track(await startNext());
    const response = await captureResponse(ours.url + PAGE);
    const bare = track(await startBare(response));
    /** @type {Record<ServerId, BenchServer>} */
    const servers = { bare, ours, quiet, next };
    log(
      `  ${PAGE}: HTTP ${response.status}, ${response.bytes} bytes, ${Object.keys(response.headers).length} headers copied to the bare server`,
    );
    /** @type {ServerId[]} */
    const order = ['bare', 'ours', 'quiet', 'next'];
    /** @type {Record<ServerId, WrkRun[]>} */
    const runs = { bare: [], ours: [], quiet: [], next: [] };
    for (const id of order) await runWrk(servers[id].url + PAGE, { durationS: warmupS, threads: 1 });
    for (let r = 1; r <= rounds; r += 1) {
      for (const id of r % 2 ? order : [...order].reverse()) {
        const result = await runWrk(servers[id].url + PAGE, { durationS, threads: 1 });
        runs[id].push(result);
        log(
          `  round ${r}  ${servers[id].name.padEnd(22)} ${result.rps.toFixed(0).padStart(7)} req/s  p99 ${result.p99Ms.toFixed(2)} ms` +
            `  non-2xx/3xx ${result.non_2xx_3xx}`,
        );
      }
    }
    const summarize = (/** @type {ServerId} */ id) => ({
      name: servers[id].name,
      medianRps: round(median(runs[id].map((x) => x.rps)), 0),
      rps: runs[id].map((x) => round(x.rps, 0)),
      p99Ms: round(median(runs[id].map((x) => x.p99Ms)), 2),
    });
    const summary = { bare: summarize('bare'), ours: summarize('ours'), quiet: summarize('quiet'), next: summarize('next') };
    const share = (/** @type {ServerId} */ id) => round(summary[id].medianRps / summary.bare.medianRps, 2);
    const result = {
      page: PAGE,
      bytes: response.bytes,
      rounds,
      durationS,
      servers: summary,
      shareOfBare: { ours: share('ours'), quiet: share('quiet'), next: share('next') },
      peakRssMiB: { ours: peakRssMiB(ours.pid), quiet: peakRssMiB(quiet.pid), next: peakRssMiB(next.pid) },
      target: CEILING_SHARE_TARGET,
    };
    log(
      `  medians: ${order.map((id) => `${summary[id].name} ${summary[id].medianRps}`).join(', ')} req/s; ` +
        `ours ${result.shareOfBare.ours}× bare (access log off ${result.shareOfBare.quiet}×), Next ${result.shareOfBare.next}×; ` +
        `peak RSS ours ${result.peakRssMiB.ours} MiB`,
    );
    return result;
  } finally {
    for (const server of started) await server.stop();
  }
}
