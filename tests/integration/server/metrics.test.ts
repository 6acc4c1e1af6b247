import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { ensureDebianPackages } from '../../../tools/debian-packages.mjs';
import { runSync } from '../../../tools/lib/command.mjs';
import { NODE_VERSION } from '../../../tools/node-runtime.mjs';
import { eventually, parseSeries, request, scrape, valueOf } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';
import { loadPage, sendBeacon } from '../../../tools/telemetry-attack/requests.mjs';

/** What the build wrote beside the server (read when needed: the build may be replaced between test runs). */
const buildInfo = () =>
  JSON.parse(readFileSync(path.join(ROOT, '.next', 'standalone', 'build-info.json'), 'utf8')) as {
    buildId: string;
    version: string;
    revision: string;
  };

/** prom-client names these gauges `_total`, which promtool's linter flags; they are not ours to rename. */
const PROM_CLIENT_LINT = /^nodejs_active_(handles|requests|resources)_total non-counter metrics should not have "_total" suffix$/;

const BEACON = {
  events: [
    { type: 'web_vital', name: 'LCP', value: 1200, locale: 'ja', route: '/ja' },
    { type: 'locale_load_failed', locale: 'ja', namespace: 'home', cause: 'HTTP 500' },
    { type: 'manifest_fetch_failed', kind: 'manifest', status: 503 },
  ],
};

let server: RunningServer;

beforeAll(async () => {
  ensureDebianPackages(['prometheus']);
  server = await startServer();
});

afterAll(async () => {
  await server?.stop();
});

describe('the metrics port', () => {
  it('exports prom-client default process and event-loop metrics', async () => {
    const names = new Set(parseSeries(await scrape(server)).map((series) => series.name));

    expect(names).toContain('process_resident_memory_bytes');
    expect(names).toContain('nodejs_eventloop_lag_seconds');
  });

  it('counts requests by route template: /, /[locale] and not_found', async () => {
    expect((await request(`${server.url}/`)).status).toBe(200);
    expect((await request(`${server.url}/ja`)).status).toBe(200);
    expect((await request(`${server.url}/nope`)).status).toBe(404);

    const text = await eventually(async () => {
      const body = await scrape(server);
      expect(valueOf(body, 'http_server_request_duration_seconds_count', { route: 'not_found', method: 'GET' })).toBe(1);
      return body;
    });
    const buckets = parseSeries(text).filter((series) => series.name === 'http_server_request_duration_seconds_bucket');
    const expected: [string, string][] = [
      ['/', '200'],
      ['/[locale]', '200'],
      ['not_found', '404'],
    ];
    for (const [route, status] of expected) {
      expect(
        buckets.filter((b) => b.labels.route === route && b.labels.status_code === status && b.labels.method === 'GET').length,
      ).toBeGreaterThan(0);
      expect(valueOf(text, 'http_server_request_duration_seconds_bucket', { route, method: 'GET', le: '+Inf' })).toBe(1);
    }
    expect(text).not.toContain('/nope');
  });

  it('exports the number of requests in flight, back to 0 when idle', async () => {
    await eventually(async () => expect(valueOf(await scrape(server), 'http_server_active_requests')).toBe(0));
  });

  it('exports meridian_build_info 1 with the build id, version, revision and Node version', async () => {
    const info = parseSeries(await scrape(server)).filter((series) => series.name === 'meridian_build_info');
    const build = buildInfo();

    expect(info).toHaveLength(1);
    expect(info[0]?.labels).toEqual({
      build_id: build.buildId,
      version: build.version,
      revision: build.revision,
      // The server runs on the same Node binary as the tests.
      node_version: `v${NODE_VERSION}`,
    });
    expect(info[0]?.value).toBe(1);
  });

  it('turns a telemetry beacon into meridian_* counters and histograms', async () => {
    const { token } = await loadPage(server.url, { path: '/ja' });
    expect(await sendBeacon(server.url, { ...BEACON, token })).toBe(204);

    const text = await scrape(server);
    expect(valueOf(text, 'meridian_client_events_total', { event: 'web_vital', page_build: 'self' })).toBe(1);
    expect(valueOf(text, 'meridian_client_events_total', { event: 'locale_load_failed', page_build: 'self' })).toBe(1);
    expect(valueOf(text, 'meridian_client_events_total', { event: 'manifest_fetch_failed', page_build: 'self' })).toBe(1);
    expect(valueOf(text, 'meridian_web_vitals_lcp_seconds_count', { locale: 'ja', page_build: 'self' })).toBe(1);
    expect(valueOf(text, 'meridian_web_vitals_lcp_seconds_sum', { locale: 'ja', page_build: 'self' })).toBeCloseTo(1.2);
    expect(valueOf(text, 'meridian_web_vitals_lcp_seconds_bucket', { locale: 'ja', page_build: 'self', le: '1' })).toBe(0);
    expect(valueOf(text, 'meridian_web_vitals_lcp_seconds_bucket', { locale: 'ja', page_build: 'self', le: '1.5' })).toBe(1);
    expect(
      valueOf(text, 'meridian_locale_load_failures_total', { locale: 'ja', namespace: 'home', source: 'client', page_build: 'self' }),
    ).toBe(1);
    expect(valueOf(text, 'meridian_manifest_fetch_failures_total', { kind: 'manifest', page_build: 'self' })).toBe(1);
    expect(text).toMatch(/^# TYPE meridian_web_vitals_inp_seconds histogram$/m);
    expect(text).toMatch(/^# TYPE meridian_web_vitals_cls histogram$/m);
  });

  it('answers 404 to anything but GET or HEAD /metrics', async () => {
    expect((await request(`${server.metricsUrl}/`)).status).toBe(404);
    expect((await request(`${server.metricsUrl}/metrics/x`)).status).toBe(404);
    expect((await request(`${server.metricsUrl}/metrics`, { method: 'POST', body: 'x' })).status).toBe(404);
    expect((await request(`${server.metricsUrl}/metrics`, { method: 'HEAD' })).status).toBe(200);
  });

  it('passes promtool check metrics, but for prom-client’s own *_total gauges', async () => {
    const text = await scrape(server);
    const result = runSync('promtool', ['check', 'metrics'], { input: text, check: false });

    const complaints = `${result.stdout}\n${result.stderr}`
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
    const ours = complaints.filter((line) => !PROM_CLIENT_LINT.test(line));
    expect(ours).toEqual([]);
    // 0: clean; 3: lint problems only (all of them prom-client's, as checked above).
    if (complaints.length === 0) expect(result.exitCode).toBe(0);
    else expect(result.exitCode).toBe(3);
  });
});

describe('the public port', () => {
  it('answers 404 on /metrics and exposes no metric there', async () => {
    const reply = await request(`${server.url}/metrics`);

    expect(reply.status).toBe(404);
    expect(reply.body).not.toContain('http_server_request_duration_seconds');
    expect(reply.body).not.toContain('process_resident_memory_bytes');
  });
});
