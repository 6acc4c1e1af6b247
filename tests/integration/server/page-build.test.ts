import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BUILDS } from '../../../tools/lib/builds.mjs';
import { parseSeries, request, scrape, type Series } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

// What browsers report carries the build of the page that sent it, as a label of two values
// seen from the receiving server: `self` (its own build) or `other` (anything else).
const { a: A, b: B } = TEST_BUILDS;
let server: RunningServer;

const beacon = (build: unknown, events: unknown[]) =>
  request(`${server.url}/api/telemetry`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ build, events }),
  });

const reportsOf = (series: Series[]) => series.filter((one) => one.name.startsWith('meridian_'));
const valueOf = (series: Series[], name: string, labels: Record<string, string>) =>
  series.find((one) => one.name === name && Object.entries(labels).every(([key, value]) => one.labels[key] === value))?.value ?? 0;

beforeAll(async () => {
  server = await startServer({ TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000' });
});

afterAll(async () => {
  await server?.stop();
});

describe('reports by page build', () => {
  it('count a page of this build as self and any other as other, page views from TTFB', async () => {
    const before = parseSeries(await scrape(server));
    const events = [
      { type: 'chunk_reload', reason: 'x' },
      { type: 'web_vital', name: 'TTFB', value: 80, locale: 'ja', route: '/ja' },
      { type: 'web_vital', name: 'LCP', value: 1200, locale: 'ja', route: '/ja' },
    ];
    expect((await beacon(A.id, events)).status).toBe(204);
    expect((await beacon(B.id, events)).status).toBe(204);
    expect((await beacon(B.id, events)).status).toBe(204);
    const after = parseSeries(await scrape(server));
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('meridian_client_events_total', { event: 'chunk_reload', page_build: 'self' })).toBe(1);
    expect(moved('meridian_client_events_total', { event: 'chunk_reload', page_build: 'other' })).toBe(2);
    expect(moved('meridian_client_page_views_total', { page_build: 'self' })).toBe(1);
    expect(moved('meridian_client_page_views_total', { page_build: 'other' })).toBe(2);
    expect(moved('meridian_web_vitals_lcp_seconds_count', { locale: 'ja', page_build: 'other' })).toBe(2);
  });

  it('leave the series count unchanged by 1,000 random build ids, each counted once under other', async () => {
    const before = reportsOf(parseSeries(await scrape(server)));
    for (let index = 0; index < 1000; index += 1) {
      const build = [randomBytes(8).toString('hex'), `${A.id}x`, ` ${A.id}`, A.id.toUpperCase(), '', 7, null][index % 7];
      const reply = await beacon(build, [{ type: 'web_vital', name: 'TTFB', value: 10, locale: 'en', route: '/' }]);
      expect([204, 400]).toContain(reply.status);
    }
    const after = reportsOf(parseSeries(await scrape(server)));
    expect(after.map((one) => one.key).sort()).toEqual(before.map((one) => one.key).sort());
    const views = (series: Series[], page_build: string) => valueOf(series, 'meridian_client_page_views_total', { page_build });
    // The five strings of every seven (143 times each) are counted; a number or null is no build id: refused.
    expect(views(after, 'other') - views(before, 'other')).toBe(5 * 143);
    expect(views(after, 'self')).toBe(views(before, 'self'));
  });

  it("counts a beacon claiming the canary's build from a page of the stable build once, in the one other series", async () => {
    const before = parseSeries(await scrape(server));
    // This server plays the stable build (A); the page says it is of B, the canary.
    expect((await beacon(B.id, [{ type: 'manifest_fetch_failed', kind: 'manifest', buildId: A.id, status: 404 }])).status).toBe(204);
    const after = parseSeries(await scrape(server));
    const failures = (series: Series[]) => series.filter((one) => one.name === 'meridian_manifest_fetch_failures_total');
    const changed = failures(after).filter((one) => one.value !== failures(before).find((old) => old.key === one.key)?.value);
    expect(changed.map((one) => [one.labels, one.value - valueOf(before, one.name, one.labels)])).toEqual([
      [{ kind: 'manifest', page_build: 'other' }, 1],
    ]);
  });
});
