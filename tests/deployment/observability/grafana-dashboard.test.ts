import { describe, expect, it } from 'vitest';
import { readDashboard, rows, type GridPos } from '../support/grafana-dashboard';
import { dashboardExpressions } from '../support/observability-expressions';
import { vectorSelectors } from '../support/promql';
import { promtool, yamlFile } from '../support/promtool';

const dashboard = readDashboard();
const panels = rows(dashboard).flatMap((row) => row.panels);
// Values no real target has, so a matcher that ignores a variable shows.
const VALUES = { job: 'job-under-test', namespace: 'namespace-under-test', instance: 'instance-under-test' };

/** Expressions as recording rules, so promtool parses them with Prometheus's own parser. */
function asRulesFile(expressions: { expr: string }[]): string {
  return yamlFile({
    groups: [{ name: 'dashboard', rules: expressions.map(({ expr }, index) => ({ record: `dashboard:expression_${index}`, expr })) }],
  });
}

const overlaps = (a: GridPos, b: GridPos) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;

describe('the Grafana dashboard', () => {
  it('is the meridian dashboard in a current schema, on a data source variable', () => {
    expect(dashboard.uid).toBe('meridian');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(dashboard.templating.list[0]).toMatchObject({ name: 'datasource', type: 'datasource', query: 'prometheus' });
    for (const panel of panels) expect(panel.datasource, panel.title).toEqual({ type: 'prometheus', uid: '${datasource}' });
  });

  it('has job, namespace and instance variables; namespace and instance allow All as `.*`', () => {
    const variables = Object.fromEntries(dashboard.templating.list.map((variable) => [variable.name, variable]));

    expect(variables.job).toMatchObject({ type: 'query', includeAll: false });
    expect(variables.namespace).toMatchObject({ type: 'query', includeAll: true, allValue: '.*' });
    expect(variables.instance).toMatchObject({ type: 'query', includeAll: true, allValue: '.*' });
  });

  it('has the rows an on-call engineer reads top to bottom, each with the panels the issue asks for', () => {
    expect(Object.fromEntries(rows(dashboard).map((row) => [row.title, row.panels.map((panel) => panel.title)]))).toEqual({
      Traffic: ['Requests per second by route', 'Requests per second by status class'],
      Errors: ["5xx ratio of visitors' requests", '5xx per second by route and status', '404 per second by route'],
      Latency: ['p50 latency by route', 'p95 latency by route', 'p99 latency by route'],
      Saturation: [
        'Active requests',
        'Event-loop lag p99',
        'Resident memory',
        'CPU (cores)',
        'Time in GC',
        'Requests refused before parsing, by reason',
        'Connections dropped at MAX_CONNECTIONS',
        'Renders shed, by reason',
        'Renders in flight and queued',
        'Renderer CPU (cores) and memory',
      ],
      Rollout: [
        'Pods by build id',
        'Scrape targets up',
        'Browsers that detected a new build',
        'Chunk reloads and blocked reloads',
        'Requests per second by build',
        '5xx ratio: canary against stable',
        'p95 latency: canary against stable',
        'Browser failures per page view: canary against stable',
        'LCP p75: canary against stable',
      ],
      i18n: [
        'Locale load failures by locale and source',
        "Page views by locale (browsers' LCP reports)",
        'Home page requests: / (English) and /[locale] (other locales)',
      ],
      Freshness: [
        'Manifest, payload and latest fetch failures by kind',
        '/builds/latest.json requests per second by status',
        'Share of page views reporting a failure',
        'Browser reports refused, by reason',
      ],
      'Web Vitals': ['LCP p75 by locale', 'INP p75 by locale', 'CLS p75 by locale'],
    });
  });

  it('describes every panel, with unique ids and no two panels on the same cells of the 24-column grid', () => {
    const all = dashboard.panels;

    expect(new Set(all.map((panel) => panel.id)).size).toBe(all.length);
    for (const panel of panels) expect(panel.description, panel.title).toMatch(/^.{20,}$/);
    for (const [index, panel] of all.entries()) {
      expect(panel.gridPos.x + panel.gridPos.w, panel.title).toBeLessThanOrEqual(24);
      for (const other of all.slice(index + 1))
        expect(overlaps(panel.gridPos, other.gridPos), `${panel.title} / ${other.title}`).toBe(false);
    }
  });

  it('filters every series it reads by the job, namespace and instance variables', () => {
    for (const { name, expr } of dashboardExpressions(VALUES).filter((expression) => expression.name.startsWith('dashboard ›'))) {
      const selectors = vectorSelectors(expr);

      expect(selectors.length, name).toBeGreaterThan(0);
      for (const selector of selectors) {
        expect(selector.matchers, name).toEqual(
          expect.arrayContaining([
            { label: 'job', op: '=', value: VALUES.job },
            { label: 'namespace', op: '=~', value: VALUES.namespace },
            { label: 'instance', op: '=~', value: VALUES.instance },
          ]),
        );
      }
    }
  });

  it("has every panel and variable expression parse with Prometheus's parser (promtool)", () => {
    const expressions = dashboardExpressions({ job: 'meridian' });
    const result = promtool(['check', 'rules', asRulesFile(expressions)]);

    expect(expressions.length).toBeGreaterThan(panels.length);
    expect(result.status, result.output).toBe(0);
  });

  it('shows the locale load failures of a pod whose start-up failed, its series already at 1 when first scraped (promtool)', () => {
    const panel = 'dashboard › i18n › Locale load failures by locale and source › A';
    const expr = dashboardExpressions({ job: 'meridian' }).find((expression) => expression.name === panel)?.expr;
    const failures = (instance: string, values: string) => ({
      series: `meridian_locale_load_failures_total{job="meridian", namespace="site", instance="${instance}", locale="ja", source="server"}`,
      values,
    });
    const tests = yamlFile({
      rule_files: [],
      evaluation_interval: '15s',
      tests: [
        {
          interval: '15s',
          input_series: [
            // A pod running all along, its known series at 0.
            failures('10.0.0.1:9464', '0x24'),
            // A pod started at 2m whose start-up failed to load a file once, before its first scrape.
            failures('10.0.0.2:9464', '_x8 1x16'),
          ],
          promql_expr_test: [
            { expr, eval_time: '2m15s', exp_samples: [{ labels: '{locale="ja", source="server"}', value: 1 }] },
            { expr, eval_time: '5m', exp_samples: [{ labels: '{locale="ja", source="server"}', value: 0 }] },
          ],
        },
      ],
    });
    const result = promtool(['test', 'rules', tests]);

    expect(expr).toBeDefined();
    expect(result.status, result.output).toBe(0);
  });

  it('finds an expression that does not parse, so the check above can fail', () => {
    const result = promtool(['check', 'rules', asRulesFile([{ expr: 'sum(rate(up[5m])' }])]);

    expect(result.status).not.toBe(0);
    expect(result.output).toContain('parse error');
  });
});
