import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { E2E_BUILD_ENV } from '../../../tools/lib/builds.mjs';
import { freePort } from '../../../tools/lib/ports.mjs';
import { startPrometheus } from '../../../tools/rollout/prometheus.mjs';
import { ensureDebianPackages } from '../../../tools/debian-packages.mjs';
import { observabilityExpressions } from '../../deployment/support/observability-expressions';
import { eventually, request } from '../support/http';
import { loadPage, sendBeacon } from '../../../tools/telemetry-attack/requests.mjs';
import { copyOfBuild, startServer, type RunningServer } from '../support/server-process';

/** The job tools/rollout/prometheus.mjs scrapes the targets as, which the rules select. */
const JOB = 'meridian';
const RULES = path.join(ROOT, 'helm', 'meridian', 'files', 'prometheus-rules.yaml');
const TRAFFIC_MS = 8000;

/**
 * Expressions whose inputs this traffic does not exercise (no request is made to
 * fail with a 5xx; only readiness polls before start-up may have), so they may or
 * may not return data. Every other dashboard and recording expression must.
 */
const NOT_EXERCISED = new Set([
  'dashboard › Traffic › Requests per second by status class › D',
  'dashboard › Errors › 5xx per second by route and status › A',
  // Both processes run one build, judged as the canary (CANARY below): the Rollout row's stable side has none.
  'dashboard › Rollout › 5xx ratio: canary against stable › B',
  'dashboard › Rollout › p95 latency: canary against stable › B',
  'dashboard › Rollout › LCP p75: canary against stable › B',
  'dashboard › Rollout › Browser failures per page view: canary against stable › B',
]);
/** The build both processes run, as the Rollout row's canary; the beacons come from its pages (their tokens say so). */
const CANARY = E2E_BUILD_ENV.BUILD_ID;
/** Alerts this traffic sets off; the others must evaluate without error and stay silent. */
const FIRING = [
  'alert › MeridianServerLocaleLoadFailure',
  'alert › MeridianClientLocaleLoadFailureBurst',
  'alert › MeridianClientManifestFetchFailureBurst',
  'alert › MeridianChunkReloadBlocked',
];

const TELEMETRY_EVENTS = [
  { type: 'build_update_detected', from: 'a', to: 'b' },
  { type: 'chunk_reload', reason: 'test' },
  { type: 'chunk_reload_blocked', reason: 'test' },
  { type: 'manifest_fetch_failed', kind: 'manifest', status: 503 },
  { type: 'manifest_fetch_failed', kind: 'latest', status: 0 },
  { type: 'payload_fetch_failed', status: 404, path: '/ja' },
  { type: 'locale_load_failed', locale: 'zh-CN', namespace: 'home' },
  { type: 'web_vital', name: 'LCP', value: 1800, locale: 'ja', route: '/ja' },
  { type: 'web_vital', name: 'INP', value: 120, locale: 'ja', route: '/ja' },
  { type: 'web_vital', name: 'CLS', value: 0.02, locale: 'en', route: '/' },
];

let servers: RunningServer[] = [];
let brokenCopy = '';
let prometheusDir = '';
let prometheus: Awaited<ReturnType<typeof startPrometheus>>;
/** A moment when the last scrape of both servers had succeeded: every query is evaluated then. */
let evaluatedAt = '';

/** Pages, redirects, 404s, build files, beacons: a bit of everything the dashboard shows, on both servers. */
async function driveTraffic(): Promise<void> {
  const until = Date.now() + TRAFFIC_MS;
  while (Date.now() < until) {
    await Promise.all(
      servers.flatMap((server) => [
        request(`${server.url}/`, { headers: { 'accept-language': 'en' } }),
        request(`${server.url}/`, { headers: { 'accept-language': 'ja' } }),
        request(`${server.url}/ja`),
        // A browser's page load, as it says so (the page views of the Rollout row).
        request(`${server.url}/ja`, { headers: { 'sec-fetch-dest': 'document', 'sec-fetch-mode': 'navigate' } }),
        request(`${server.url}/zh-CN`),
        request(`${server.url}/en`),
        request(`${server.url}/no-such-page`),
        request(`${server.url}/ja/no-such-page?from=test`),
        request(`${server.url}/builds/latest.json?${Date.now()}`),
        request(`${server.url}/_next/static/chunks/not-in-this-build.js`),
        // Browsers' page views, each reporting every event once with its page-view token: past
        // the browsers' alerts' minimums (50 page views, 10 reports) within the few seconds scraped.
        ...[0, 1, 2, 3, 4].map(async () => {
          const { token } = await loadPage(server.url, { path: '/ja' });
          await sendBeacon(server.url, { token, events: TELEMETRY_EVENTS });
        }),
      ]),
    );
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

beforeAll(async () => {
  const env = { TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000' };
  // The second server's Japanese not-found messages are broken: a locale failure on the server.
  const entry = copyOfBuild();
  brokenCopy = path.dirname(entry);
  writeFileSync(path.join(brokenCopy, 'locales', 'ja', 'not-found.json'), '{ "title": ');
  servers = [await startServer(env), await startServer(env, { entry })];
  ensureDebianPackages(['prometheus']);
  prometheusDir = mkdtempSync(path.join(tmpdir(), 'meridian-prometheus-'));
  prometheus = await startPrometheus({
    dir: prometheusDir,
    port: await freePort(),
    targets: servers.map((server) => new URL(server.metricsUrl).host),
    ruleFiles: [RULES],
    // As long to answer as between scrapes: a busy test machine can be slow with /metrics.
    scrapeInterval: '2s',
  });
  await driveTraffic();
  // A scrape that times out on a busy machine marks every series stale; pick a moment after good ones.
  evaluatedAt = await eventually(async () => {
    // The last two scrapes of each server good: every series has two fresh samples for rate().
    const [sample] = await prometheus.query(
      `min(min_over_time(up{job="${JOB}"}[5s])) == 1 and min(count_over_time(up{job="${JOB}"}[5s])) >= 2`,
    );
    if (!sample) throw new Error('no two good scrapes of both servers yet');
    return String(sample.value[0]);
  }, 60_000);
}, 120_000);

afterAll(async () => {
  await prometheus?.stop();
  if (prometheusDir) rmSync(prometheusDir, { recursive: true, force: true });
  await Promise.all(servers.map((server) => server.stop()));
  if (brokenCopy) rmSync(brokenCopy, { recursive: true, force: true });
});

describe('the dashboard and the rules against a real Prometheus scraping two app processes', () => {
  it('has both app processes as healthy targets', async () => {
    const up = await prometheus.query(`up{job="${JOB}"}`);
    expect(up.map((series) => series.value[1])).toEqual(['1', '1']);
  });

  const expressions = observabilityExpressions({ job: JOB, rateInterval: '1m', canary: CANARY });

  it.each(expressions.map((expression) => [expression.name, expression.expr]))('%s evaluates', async (name, expr) => {
    // Rejects with Prometheus's own error when the expression does not evaluate.
    const results = await prometheus.query(expr, evaluatedAt);
    if (NOT_EXERCISED.has(name)) return;
    if (name.startsWith('alert ›')) expect(results.length > 0, `${name} firing`).toBe(FIRING.includes(name));
    else expect(results.length, `${name} returns data`).toBeGreaterThan(0);
  });

  it('evaluates every rule of the rules file without error in Prometheus itself', async () => {
    const response = (await (await fetch(`${prometheus.url}/api/v1/rules`)).json()) as {
      data: { groups: { rules: { name: string; health: string; lastError?: string }[] }[] };
    };
    const rules = response.data.groups.flatMap((group) => group.rules);
    expect(rules.length).toBe(expressions.filter((expression) => !expression.name.startsWith('dashboard')).length);
    expect(rules.filter((rule) => rule.health !== 'ok')).toEqual([]);
  });
});
