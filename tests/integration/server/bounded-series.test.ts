import { randomBytes } from 'node:crypto';
import { Agent, STATUS_CODES } from 'node:http';
import { describe, expect, it } from 'vitest';
import { NAMESPACES } from '@/i18n/namespaces';
import {
  FETCH_FAILURE_KINDS,
  PEER_FILE_KINDS,
  PEER_FORWARD_RESULTS,
  SHED_REASONS,
  TELEMETRY_REJECTIONS,
  TELEMETRY_RELAY_RESULTS,
  UNPARSED_REASONS,
} from '@/server/observability/metrics';
import { ROUTES } from '@/server/observability/route-label';
import { LOCALES } from '@/shared/locales';
import { PAGE_BUILDS, TELEMETRY_EVENT_TYPES } from '@/shared/telemetry-events';
import { loadPage } from '../../../tools/telemetry-attack/requests.mjs';
import { parseSeries, request, scrape, type Series } from '../support/http';
import { serverPerFile } from '../support/server-process';

/** Every random string sent starts with this, so a leak into a label is easy to spot. */
const MARKER = 'zqx';
const token = () => `${MARKER}${randomBytes(6).toString('hex')}`;
const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)] as T;

// Every label value must come from the fixed sets the server declares (a browser's unknown locale or
// namespace, like an unknown method, is counted as 'other').
const METHODS = ['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT', 'other'];
const STATUS = Object.keys(STATUS_CODES);
const LOCALE_LABELS = [...LOCALES, 'other'];
const NAMESPACE_LABELS = [...NAMESPACES, 'other'];
const buckets = (values: number[]) => [...values.map(String), '+Inf'];
const histogram = (labels: Record<string, readonly string[]>, le: number[]) => ({
  _bucket: { ...labels, le: buckets(le) },
  _sum: labels,
  _count: labels,
});
const EXPECTED: Record<string, Record<string, readonly string[]>> = {
  http_server_active_requests: {},
  http_server_dropped_connections_total: {},
  http_server_unparsed_requests_total: { reason: UNPARSED_REASONS },
  ...prefixed(
    'http_server_request_duration_seconds',
    histogram({ method: METHODS, route: ROUTES, status_code: STATUS }, [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10]),
  ),
  meridian_client_events_total: { event: TELEMETRY_EVENT_TYPES, page_build: PAGE_BUILDS },
  meridian_client_page_views_total: { page_build: PAGE_BUILDS },
  meridian_client_failed_page_views_total: { page_build: PAGE_BUILDS },
  meridian_telemetry_rejected_total: { reason: TELEMETRY_REJECTIONS },
  meridian_telemetry_relays_total: { result: TELEMETRY_RELAY_RESULTS },
  meridian_locale_load_failures_total: {
    locale: LOCALE_LABELS,
    namespace: NAMESPACE_LABELS,
    source: ['server', 'client'],
    page_build: PAGE_BUILDS,
  },
  meridian_manifest_fetch_failures_total: { kind: FETCH_FAILURE_KINDS, page_build: PAGE_BUILDS },
  meridian_page_loads_total: {},
  meridian_peer_forwards_total: { kind: PEER_FILE_KINDS, result: PEER_FORWARD_RESULTS },
  meridian_render_shed_total: { reason: SHED_REASONS },
  meridian_renders_in_flight: {},
  meridian_renders_queued: {},
  meridian_renderer_up: {},
  meridian_renderer_restarts_total: {},
  meridian_renderer_cpu_seconds_total: {},
  meridian_renderer_resident_memory_bytes: {},
  ...prefixed(
    'meridian_web_vitals_lcp_seconds',
    histogram({ locale: LOCALE_LABELS, page_build: PAGE_BUILDS }, [0.5, 1, 1.5, 2, 2.5, 3, 4, 5, 7.5, 10]),
  ),
  ...prefixed(
    'meridian_web_vitals_inp_seconds',
    histogram({ locale: LOCALE_LABELS, page_build: PAGE_BUILDS }, [0.025, 0.05, 0.1, 0.15, 0.2, 0.3, 0.5, 0.75, 1, 2]),
  ),
  ...prefixed(
    'meridian_web_vitals_cls',
    histogram({ locale: LOCALE_LABELS, page_build: PAGE_BUILDS }, [0.01, 0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1]),
  ),
};

function prefixed(name: string, parts: Record<string, Record<string, readonly string[]>>) {
  return Object.fromEntries(Object.entries(parts).map(([suffix, labels]) => [`${name}${suffix}`, labels]));
}

const watched = (series: Series) => series.name.startsWith('http_server_') || series.name.startsWith('meridian_');
/** The one series whose label values come from the build, not from a fixed list: checked on its own. */
const BUILD_INFO = 'meridian_build_info';

/** Real page-view tokens of this server, harvested before the traffic starts: most beacons carry one. */
const pageTokens: string[] = [];

/** Beacons: valid shapes with random label-ish strings and tokens real, edited or made up, and garbage. */
function randomBeacon(): string {
  const t = token();
  const real = pick(pageTokens);
  const pageToken = pick([real, real, real, `${real}${t}`, `${t}.${t}.${t}`, undefined]);
  const events = [
    {
      type: 'web_vital',
      name: pick(['LCP', 'INP', 'CLS', 'FCP', 'TTFB']),
      value: Math.random() * 5000,
      locale: pick(['ja', t, 'JA', '']),
      route: pick([`/${t}`, `/ja/${t}`, '/ja', t]),
      id: t,
    },
    { type: 'locale_load_failed', locale: pick(['ja', 'zh-CN', t]), namespace: pick(['home', t, `../${t}`]), cause: t },
    { type: 'manifest_fetch_failed', kind: pick(['manifest', 'latest', t]), buildId: t, status: pick([404, 500, 700]) },
    { type: 'payload_fetch_failed', buildId: t, path: `/${t}`, status: 503 },
    { type: 'build_update_detected', from: t, to: t },
    { type: pick(['chunk_reload', 'chunk_reload_blocked']), reason: t },
    { type: t, locale: t },
  ];
  return pick([
    () => JSON.stringify({ token: pageToken, events: Array.from({ length: 1 + Math.floor(Math.random() * 5) }, () => pick(events)) }),
    () => JSON.stringify({ token: pageToken, events: [pick(events)], [t]: t }),
    () => JSON.stringify({ [t]: [t] }),
    () => JSON.stringify({ token: pageToken, events: [{ ...pick(events), value: pick([-1, 1e12, 'NaN', null]) }] }),
    () => `{"events":[{"type":"${t}"`,
    () => randomBytes(64).toString('latin1'),
    () => '',
  ])();
}

interface Job {
  method: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
}

const METHODS_SENT = ['GET', 'HEAD', 'POST', 'DELETE', 'PURGE'];
/** Kinds of request and how many of each: cheap ones are the many, 404 page renders the few thousand. */
const KINDS: [number, () => Job][] = [
  [
    2_500,
    () => ({
      method: pick(METHODS_SENT),
      path: pick([`/${token()}`, `/ja/${token()}`, `/zh-CN/${token()}/${token()}`, `/${token()}?${token()}=1`]),
    }),
  ],
  [3_000, () => ({ method: pick(['GET', 'HEAD']), path: pick([`/${token()}.json`, `/${token()}.png`, `/ja/${token()}.txt`]) })],
  [8_000, () => ({ method: pick(['GET', 'HEAD']), path: pick([`/_next/static/${token()}.js`, `/_next/static/chunks/${token()}.css`]) })],
  [5_000, () => ({ method: 'POST', path: pick(['/', '/ja']), body: token() })],
  [
    2_000,
    () => ({
      method: pick(['GET', 'PURGE', 'OPTIONS']),
      path: pick([
        `/_next/image?url=${token()}`,
        `/en/${token()}`,
        `/ZH-cn/${token()}`,
        `/api/${token()}`,
        `/builds/meta/${token()}`,
        `/_next/${token()}`,
        `//${token()}`,
        `/%E3%81%82${token()}`,
        `/%zz${token()}`,
      ]),
    }),
  ],
  [
    27_500,
    () => ({
      method: pick(['HEAD', 'GET']),
      path: pick([`/ja?${token()}=${token()}`, `/?q=${token()}`, '/zh-CN']),
      headers: { 'Accept-Encoding': 'br' },
    }),
  ],
  [
    2_000,
    () => ({
      method: 'POST',
      path: '/api/telemetry',
      headers: {
        'Content-Type': pick(['application/json', 'application/json', 'text/plain']),
        ...pick([
          { 'Sec-Fetch-Site': 'same-origin' },
          { 'Sec-Fetch-Site': 'same-origin' },
          { 'Sec-Fetch-Site': 'cross-site' },
          { Origin: token() },
          {},
        ]),
      },
      body: randomBeacon(),
    }),
  ],
];

// A limit no test reaches, so every beacon is parsed and recorded.
const server = serverPerFile({ TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000' });

describe('metric series under random traffic', () => {
  const statuses = new Map<number, number>();
  const failures: string[] = [];

  it('stay within the fixed sets of routes, methods, status codes and client labels', async () => {
    for (let i = 0; i < 100; i += 1)
      pageTokens.push((await loadPage(server.url, { path: pick(['/', '/ja', `/zh-CN/${token()}`]) })).token ?? '');
    const before = parseSeries(await scrape(server));

    const jobs = KINDS.flatMap(([count, make]) => Array.from({ length: count }, () => make));
    expect(jobs).toHaveLength(50_000);
    for (let i = jobs.length - 1; i > 0; i -= 1) {
      const j = Math.floor(Math.random() * (i + 1));
      [jobs[i], jobs[j]] = [jobs[j] as () => Job, jobs[i] as () => Job];
    }
    // A pool of 50 keep-alive connections, each sending its next request once the last one is answered.
    const agent = new Agent({ keepAlive: true, maxSockets: 50 });
    let next = 0;
    const worker = async () => {
      while (next < jobs.length) {
        const job = (jobs[next++] as () => Job)();
        try {
          const reply = await request(`${server.url}${job.path}`, { method: job.method, headers: job.headers, body: job.body, agent });
          statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
        } catch (error) {
          failures.push(`${job.method} ${job.path}: ${String(error)}`);
        }
      }
    };
    await Promise.all(Array.from({ length: 50 }, worker));
    agent.destroy();

    const text = await scrape(server);
    const after = parseSeries(text);
    const unexpected = after
      .filter(watched)
      .filter((series) => series.name !== BUILD_INFO)
      .filter((series) => {
        const allowed = EXPECTED[series.name];
        if (!allowed) return true;
        const keys = Object.keys(series.labels).sort();
        if (keys.join() !== Object.keys(allowed).sort().join()) return true;
        return keys.some((key) => !allowed[key]?.includes(series.labels[key] as string));
      });
    expect(unexpected.map((series) => series.key)).toEqual([]);
    const buildInfo = after.filter((series) => series.name === BUILD_INFO);
    expect(buildInfo).toHaveLength(1);
    expect(Object.keys(buildInfo[0]?.labels ?? {}).sort()).toEqual(['build_id', 'node_version', 'revision', 'version']);
    expect(after.flatMap((series) => Object.values(series.labels)).filter((value) => value.includes(MARKER))).toEqual([]);
    expect(text).not.toContain(MARKER);
    // 50 000 random targets would add tens of thousands of series if any reached a label.
    expect(after.length - before.length).toBeLessThan(2_000);
  }, 300_000);

  it('answered every one of those requests, none with a 5xx', () => {
    expect(failures.slice(0, 10)).toEqual([]);
    const total = [...statuses.values()].reduce((sum, count) => sum + count, 0);
    expect(total).toBe(50_000);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
  });
});
