// vegeta, the constant-rate load generator (tools/pins.mjs; built from its Go module once per
// machine by tools/cluster-binaries.mjs): it sends at the rate asked whatever the answers take,
// so a latency is measured at a rate, where wrk measures the peak rate.
import { rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { ensureBuild } from '../cluster-binaries.mjs';
import { run } from '../lib/command.mjs';
import { log, round } from './util.mjs';

/** The vegeta binary, built first if this machine has none of its pin. */
export function ensureVegeta() {
  return path.join(ensureBuild('vegeta', log), 'vegeta');
}

/**
 * Writes `file`, a targets file in vegeta's JSON format: `count` requests of `path` ("{hex}" new
 * random hex in each), cycled through by the attack. Its folder is the caller's to remove.
 * @param {string} file
 * @param {string} baseUrl
 * @param {{ path: string, headers?: Record<string, string> }} kind
 * @param {number} count
 */
export function writeTargets(file, baseUrl, kind, count) {
  const header = Object.fromEntries(Object.entries(kind.headers ?? {}).map(([name, value]) => [name, [value]]));
  const lines = [];
  for (let i = 0; i < count; i += 1) {
    const hex = (Math.random().toString(16).slice(2) + i.toString(16)).slice(-12);
    lines.push(JSON.stringify({ method: 'GET', url: baseUrl + kind.path.replaceAll('{hex}', hex), header }));
  }
  writeFileSync(file, `${lines.join('\n')}\n`);
  return file;
}

/**
 * @typedef {{ requests: number, rate: number, p50Ms: number, p99Ms: number, maxMs: number,
 *   statuses: Record<string, number>, errors: string[] }} AttackReport
 */

/**
 * Sends the targets of `targetsFile` at `rate` a second for `durationS` and reports the
 * latencies and statuses (code 0: no answer, within a 10 s timeout). Its results file, beside
 * the targets, goes once read or once the attack failed.
 * @param {string} vegeta
 * @param {{ targetsFile: string, rate: number, durationS: number }} attack
 * @returns {Promise<AttackReport>}
 */
export async function attack(vegeta, { targetsFile, rate, durationS }) {
  // One attack of a targets file at a time: /ja's and a flood's run together from two files.
  const results = `${targetsFile}.results`;
  let stdout;
  try {
    await run(vegeta, [
      'attack',
      '-format=json',
      `-targets=${targetsFile}`,
      `-rate=${rate}/s`,
      `-duration=${durationS}s`,
      '-timeout=10s',
      '-redirects=-1',
      // Only latencies and statuses are read: a page's body in every result made 1.2 GB a run.
      '-max-body=0',
      `-output=${results}`,
    ]);
    ({ stdout } = await run(vegeta, ['report', '-type=json', results]));
  } finally {
    rmSync(results, { force: true });
  }
  const report =
    /** @type {{ requests: number, rate: number, latencies: Record<string, number>, status_codes: Record<string, number>, errors: string[] | null }} */ (
      JSON.parse(stdout)
    );
  const ms = (/** @type {number | undefined} */ ns) => round((ns ?? 0) / 1e6, 2);
  return {
    requests: report.requests,
    rate: round(report.rate, 0),
    p50Ms: ms(report.latencies['50th']),
    p99Ms: ms(report.latencies['99th']),
    maxMs: ms(report.latencies.max),
    statuses: report.status_codes,
    errors: [...new Set(report.errors ?? [])].slice(0, 5),
  };
}
