import { describe, expect, it } from 'vitest';
import { find, render } from '../support/chart';
import { promtool, yamlFile } from '../support/promtool';

// The AnalysisTemplate's queries, as rendered, run by promtool against made-up series of a
// release with two pods of the stable build A and one of the canary B. Each is asked the
// question its two conditions ask: above the threshold (a failed measurement), at or below it
// (a passed one), or neither, because the query returned nothing (inconclusive).
const SCOPE = { job: 'web-meridian-metrics', namespace: 'site' };
const PODS = { a1: 'A', a2: 'A', b1: 'B' } as const;
type Pod = keyof typeof PODS;
const STEP = '15s';
const STEPS = 60;

const template = find(
  render({ rollout: { strategy: 'canary', canary: { analysis: { prometheusAddress: 'http://prometheus:9090' } } } }),
  'AnalysisTemplate',
);
const metrics = (template.spec as { metrics: { name: string; provider: { prometheus: { query: string } }; successCondition: string }[] })
  .metrics;
const queryOf = (name: string) =>
  metrics.find((metric) => metric.name === name)!.provider.prometheus.query.replaceAll('{{args.canary-build}}', 'B');
const thresholdOf = (name: string) => Number(/<= ([\d.]+)$/.exec(metrics.find((metric) => metric.name === name)!.successCondition)?.[1]);

const labels = (pod: Pod, extra: Record<string, string> = {}) =>
  `{${Object.entries({ ...SCOPE, instance: `${pod}:9464`, ...extra })
    .map(([key, value]) => `${key}="${value}"`)
    .join(', ')}}`;
/** A counter growing by `perSecond` from 0. */
const counter = (name: string, pod: Pod, extra: Record<string, string>, perSecond: number) => ({
  series: `${name}${labels(pod, extra)}`,
  values: `0+${perSecond * 15}x${STEPS}`,
});

interface Traffic {
  /** Requests per second per pod, and the share of them answered 500. */
  requests: Record<Pod, { rate: number; errors: number; slow?: boolean }>;
  /** Page loads per second each pod answered to browsers (its own build's pages). */
  loads: Record<Pod, number>;
  /** Per pod: reports per second of page views (TTFB) and failed page views, and LCP (fast: under 1 s, else under 5 s), by page build. */
  pages: Record<Pod, Partial<Record<'self' | 'other', { views: number; failures: number; slowLcp?: boolean }>>>;
}

function seriesOf(traffic: Traffic) {
  const series: { series: string; values: string }[] = [];
  for (const [pod, build] of Object.entries(PODS) as [Pod, string][]) {
    series.push({
      series: `meridian_build_info${labels(pod, { build_id: build, version: '0.1.0', revision: build, node_version: 'v20' })}`,
      values: `1x${STEPS}`,
    });
    const { rate, errors, slow } = traffic.requests[pod];
    const route = { method: 'GET', route: '/[locale]' };
    series.push(counter('http_server_request_duration_seconds_count', pod, { ...route, status_code: '200' }, rate * (1 - errors)));
    series.push(counter('http_server_request_duration_seconds_count', pod, { ...route, status_code: '500' }, rate * errors));
    for (const le of ['0.01', '1', '+Inf']) {
      const below = le === '0.01' && slow ? 0 : rate;
      series.push(counter('http_server_request_duration_seconds_bucket', pod, { ...route, status_code: '200', le }, below));
    }
    series.push(counter('meridian_page_loads_total', pod, {}, traffic.loads[pod]));
    // Probes never count: a draining pod's /readyz answers 503 on purpose.
    series.push(counter('http_server_request_duration_seconds_count', pod, { method: 'GET', route: '/readyz', status_code: '503' }, 5));
    for (const page_build of ['self', 'other'] as const) {
      const pages = traffic.pages[pod][page_build] ?? { views: 0, failures: 0 };
      series.push(counter('meridian_client_page_views_total', pod, { page_build }, pages.views));
      series.push(counter('meridian_client_failed_page_views_total', pod, { page_build }, pages.failures));
      for (const le of ['1', '5', '+Inf']) {
        const below = le === '1' && pages.slowLcp ? 0 : pages.views;
        series.push(counter('meridian_web_vitals_lcp_seconds_bucket', pod, { locale: 'ja', page_build, le }, below));
      }
      series.push(counter('meridian_web_vitals_lcp_seconds_count', pod, { locale: 'ja', page_build }, pages.views));
    }
  }
  return series;
}

type Verdict = 'fails' | 'passes' | 'no data';

/** promtool's answer to: which side of the threshold is the measurement of `metric`, at 10 minutes? */
function verdictOf(metric: string, traffic: Traffic, verdict: Verdict) {
  const query = queryOf(metric);
  const threshold = thresholdOf(metric);
  const present = [{ labels: '{}', value: 1 }];
  const file = yamlFile({
    rule_files: [],
    evaluation_interval: '1m',
    tests: [
      {
        interval: STEP,
        input_series: seriesOf(traffic),
        promql_expr_test: [
          { expr: `((${query}) > ${threshold}) * 0 + 1`, eval_time: '10m', exp_samples: verdict === 'fails' ? present : [] },
          { expr: `((${query}) <= ${threshold}) * 0 + 1`, eval_time: '10m', exp_samples: verdict === 'passes' ? present : [] },
        ],
      },
    ],
  });
  return promtool(['test', 'rules', file]);
}

const steady = { rate: 10, errors: 0 };
const HEALTHY: Traffic = {
  requests: { a1: steady, a2: steady, b1: steady },
  // Each build's pods answer the loads of its pages, 3 per second of A's and 1 of B's.
  loads: { a1: 1.5, a2: 1.5, b1: 1 },
  // Pages of A report to every pod; pages of B too: `other` on A's pods, `self` on B's.
  pages: {
    a1: { self: { views: 1, failures: 0 }, other: { views: 0.5, failures: 0 } },
    a2: { self: { views: 1, failures: 0 } },
    b1: { self: { views: 0.5, failures: 0 }, other: { views: 1, failures: 0 } },
  },
};
const withRequests = (b1: Traffic['requests']['b1']): Traffic => ({ ...HEALTHY, requests: { ...HEALTHY.requests, b1 } });
/** Pages of the canary loaded 2 × `loads` per second, each report `page` arriving at a1 (other) and at b1 (self). */
const withCanaryPages = (page: { views: number; failures: number; slowLcp?: boolean }, loads = page.views): Traffic => ({
  ...HEALTHY,
  loads: { ...HEALTHY.loads, b1: 2 * loads },
  pages: { ...HEALTHY.pages, a1: { ...HEALTHY.pages.a1, other: page }, b1: { ...HEALTHY.pages.b1, self: page } },
});

/** `traffic` with `share` of the stable build's page views failing: each of its views reported (3 a second) fails so often. */
const withStableFailing = (share: number, traffic: Traffic = HEALTHY): Traffic => ({
  ...traffic,
  pages: {
    a1: { ...traffic.pages.a1, self: { views: 1, failures: share } },
    a2: { self: { views: 1, failures: share } },
    b1: { ...traffic.pages.b1, other: { views: 1, failures: share } },
  },
});

describe("the canary analysis's queries, against made-up series (promtool)", () => {
  it.each<[string, string, Verdict, Traffic]>([
    ['server-error-ratio', 'a canary answering 20 % 5xx', 'fails', withRequests({ rate: 10, errors: 0.2 })],
    ['server-error-ratio', 'a canary as good as stable', 'passes', HEALTHY],
    ['server-error-ratio', 'a canary with 60 requests in the window, fewer than 100', 'no data', withRequests({ rate: 0.5, errors: 0.5 })],
    ['server-error-ratio', 'a canary with no traffic at all', 'no data', withRequests({ rate: 0, errors: 0 })],
    ['server-latency-p95', 'a canary whose requests take up to a second', 'fails', withRequests({ rate: 10, errors: 0, slow: true })],
    ['server-latency-p95', 'a canary as fast as stable', 'passes', HEALTHY],
    ['server-latency-p95', 'a canary with no traffic', 'no data', withRequests({ rate: 0, errors: 0 })],
    [
      'client-failures-per-page-view',
      "a canary's pages failing a chunk every other view",
      'fails',
      withCanaryPages({ views: 1, failures: 0.5 }),
    ],
    [
      'client-failures-per-page-view',
      'a canary whose pages fail before they report their load (the server counts it)',
      'fails',
      withCanaryPages({ views: 0, failures: 0.5 }, 1),
    ],
    [
      'client-failures-per-page-view',
      'a canary whose pages report no view, none failing',
      'passes',
      withCanaryPages({ views: 0, failures: 0 }, 1),
    ],
    ['client-failures-per-page-view', "a canary's pages failing as little as stable's", 'passes', HEALTHY],
    [
      'client-failures-per-page-view',
      'a canary with 12 page loads in the window, fewer than 20, however many views its pages report',
      'no data',
      withCanaryPages({ views: 1, failures: 0.05 }, 0.05),
    ],
    [
      'client-failures-per-page-view',
      'a canary with 8 % of its 24 page views failing, but only 2 of them, fewer than minReports (3): one client could do that',
      'passes',
      withCanaryPages({ views: 0.1, failures: 1 / 120 }),
    ],
    [
      'client-failures-per-page-view',
      'the same canary with 4 failed page views',
      'fails',
      withCanaryPages({ views: 0.1, failures: 2 / 120 }),
    ],
    [
      'client-failures-per-page-view',
      "a stable build with a fifth of its page views failing (under maxStableShare), the canary's as many",
      'passes',
      withStableFailing(0.2, withCanaryPages({ views: 1, failures: 0.2 })),
    ],
    [
      'client-failures-per-page-view',
      "a stable build with a third of its page views failing (over maxStableShare), the canary's as many",
      'no data',
      withStableFailing(1 / 3, withCanaryPages({ views: 1, failures: 1 / 3 })),
    ],
    [
      'client-failures-per-page-view',
      "a stable build with a third of its page views failing, none of the canary's: a fix goes on",
      'passes',
      withStableFailing(1 / 3, HEALTHY),
    ],
    [
      'client-failures-per-page-view',
      "a canary's pages all failing while a flood fails nine in ten of stable's: held, never promoted on it",
      'no data',
      withStableFailing(0.9, withCanaryPages({ views: 1, failures: 1 })),
    ],
    ['client-lcp-p75', "a canary's pages painting in up to 5 s", 'fails', withCanaryPages({ views: 1, failures: 0, slowLcp: true })],
    ['client-lcp-p75', "a canary's pages painting as fast as stable's", 'passes', HEALTHY],
    ['client-lcp-p75', 'no page of the canary reporting', 'no data', withCanaryPages({ views: 0, failures: 0 })],
    [
      'client-lcp-p75',
      'a canary with 12 page loads in the window, fewer than 20, however many slow LCPs are reported',
      'no data',
      withCanaryPages({ views: 1, failures: 0, slowLcp: true }, 0.05),
    ],
  ])('%s: %s → %s', (metric, _case, verdict, traffic) => {
    const result = verdictOf(metric, traffic, verdict);
    expect(result.status, result.output).toBe(0);
  });

  it('would notice a wrong verdict (so the cases above can fail)', () => {
    expect(verdictOf('server-error-ratio', HEALTHY, 'fails').status).not.toBe(0);
  });
});
