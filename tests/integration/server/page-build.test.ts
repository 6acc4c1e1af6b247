import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BUILDS } from '../../../tools/lib/builds.mjs';
import { loadPage, sendBeacon } from '../../../tools/telemetry-attack/requests.mjs';
import { parseSeries, scrape, type Series } from '../support/http';
import { startServer, type RunningServer } from '../support/server-process';

// What browsers report counts for the build of the page that sent it, as its page-view token
// names it (never as the body says), a label of two values seen from the receiving server:
// `self` (its own build) or `other` (anything else).
const { a: A, b: B } = TEST_BUILDS;
const RELEASE = { TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000', TELEMETRY_TOKEN_KEYS: 'page-build-test-key-of-32-characters' };
let server: RunningServer;
let canary: RunningServer;

const tokenOf = async (of: RunningServer) => {
  const { token } = await loadPage(of.url, { path: '/ja' });
  if (!token) throw new Error('a page came without a token');
  return token;
};
const beacon = (body: object) => sendBeacon(server.url, body);

/** The series browsers' reports can move (the renderer's own usage moves by itself). */
const reportsOf = (series: Series[]) =>
  series.filter((one) => one.name.startsWith('meridian_') && !one.name.startsWith('meridian_renderer_'));
const valueOf = (series: Series[], name: string, labels: Record<string, string>) =>
  series.find((one) => one.name === name && Object.entries(labels).every(([key, value]) => one.labels[key] === value))?.value ?? 0;

beforeAll(async () => {
  [server, canary] = await Promise.all([startServer(RELEASE), startServer(RELEASE, { entry: B.entry })]);
});

afterAll(async () => {
  await Promise.all([server?.stop(), canary?.stop()]);
});

describe('reports by page build', () => {
  it('count a page of this build as self and one of another as other, whatever the body says, page views from TTFB', async () => {
    const before = parseSeries(await scrape(server));
    const events = [
      { type: 'chunk_reload', reason: 'x' },
      { type: 'web_vital', name: 'TTFB', value: 80, locale: 'ja', route: '/ja' },
      { type: 'web_vital', name: 'LCP', value: 1200, locale: 'ja', route: '/ja' },
    ];
    expect(await beacon({ build: B.id, token: await tokenOf(server), events })).toBe(204);
    expect(await beacon({ build: A.id, token: await tokenOf(canary), events })).toBe(204);
    expect(await beacon({ token: await tokenOf(canary), events })).toBe(204);
    const after = parseSeries(await scrape(server));
    const moved = (name: string, labels: Record<string, string>) => valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('meridian_client_events_total', { event: 'chunk_reload', page_build: 'self' })).toBe(1);
    expect(moved('meridian_client_events_total', { event: 'chunk_reload', page_build: 'other' })).toBe(2);
    expect(moved('meridian_client_failed_page_views_total', { page_build: 'self' })).toBe(1);
    expect(moved('meridian_client_failed_page_views_total', { page_build: 'other' })).toBe(2);
    expect(moved('meridian_client_page_views_total', { page_build: 'self' })).toBe(1);
    expect(moved('meridian_client_page_views_total', { page_build: 'other' })).toBe(2);
    expect(moved('meridian_web_vitals_lcp_seconds_count', { locale: 'ja', page_build: 'other' })).toBe(2);
  });

  it('leave the series unchanged by 1,000 forged tokens and builds, each refused and counted', async () => {
    const before = reportsOf(parseSeries(await scrape(server)));
    const real = await tokenOf(canary);
    for (let index = 0; index < 1000; index += 1) {
      const forged = [
        randomBytes(8).toString('hex'),
        `${real}x`,
        real.replace(/\.[^.]*$/, `.${randomBytes(16).toString('base64url')}`),
        `${real.split('.')[0]}.${Buffer.from(`aaaaaaaaaaaaaaaa~${randomBytes(4).toString('hex')}~en~1~9999999999`).toString('base64url')}.x`,
      ][index % 4];
      const status = await beacon({
        build: randomBytes(4).toString('hex'),
        token: forged,
        events: [{ type: 'web_vital', name: 'TTFB', value: 10, locale: 'en', route: '/' }],
      });
      expect(status).toBe(403);
    }
    const after = reportsOf(parseSeries(await scrape(server)));
    expect(after.map((one) => one.key).sort()).toEqual(before.map((one) => one.key).sort());
    const changed = after.filter((one) => one.value !== before.find((old) => old.key === one.key)?.value);
    expect(changed.map((one) => [one.name, one.labels, one.value - valueOf(before, one.name, one.labels)])).toEqual([
      ['meridian_telemetry_rejected_total', { reason: 'bad_token' }, 1000],
    ]);
  });

  it("counts a beacon claiming the canary's build from a page of the stable build for the stable build", async () => {
    const before = parseSeries(await scrape(server));
    // This server plays the stable build (A); the body says its page is of B, the canary.
    const event = { type: 'manifest_fetch_failed', kind: 'manifest', buildId: B.id, status: 404 };
    expect(await beacon({ build: B.id, token: await tokenOf(server), events: [event] })).toBe(204);
    const after = parseSeries(await scrape(server));
    const failures = (series: Series[]) => series.filter((one) => one.name === 'meridian_manifest_fetch_failures_total');
    const changed = failures(after).filter((one) => one.value !== failures(before).find((old) => old.key === one.key)?.value);
    expect(changed.map((one) => [one.labels, one.value - valueOf(before, one.name, one.labels)])).toEqual([
      [{ kind: 'manifest', page_build: 'self' }, 1],
    ]);
  });
});
