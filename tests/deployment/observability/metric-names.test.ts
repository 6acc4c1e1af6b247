import { describe, expect, it } from 'vitest';
import { ROUTES } from '@/server/observability/route-label';
import { FETCH_FAILURE_KINDS } from '@/server/observability/metrics';
import { TELEMETRY_EVENT_TYPES } from '@/shared/telemetry-events';
import { exportedSeries, TARGET_LABELS } from '../support/exported-metrics';
import { dashboardExpressions, ruleExpressions, type NamedExpression } from '../support/observability-expressions';
import { recordingRules } from '../support/prometheus-rules';
import { groupingLabels, vectorSelectors } from '../support/promql';

const exported = exportedSeries();
const recorded = new Set(recordingRules().map((rule) => rule.record!));
/** Label values that come from a fixed list in the app: a matcher on any other value matches nothing, ever. */
const LABEL_VALUES: Record<string, readonly string[]> = {
  route: ROUTES,
  event: TELEMETRY_EVENT_TYPES,
  kind: FETCH_FAILURE_KINDS,
  source: ['server', 'client'],
};

/** Metrics an expression reads that the app does not export (nor, in `known`, something else provides). */
function unknownMetrics(expression: NamedExpression, known: (metric: string) => boolean): string[] {
  return vectorSelectors(expression.expr).flatMap((selector) =>
    selector.metric && known(selector.metric) ? [] : [`${expression.name}: ${selector.metric ?? 'a selector without a metric name'}`],
  );
}

/** Labels matched on an exported metric that it does not carry, and label values outside the app's fixed lists. */
function unknownLabels(expression: NamedExpression): string[] {
  return vectorSelectors(expression.expr).flatMap(({ metric, matchers }) => {
    const labels = exported.get(metric ?? '');
    if (!labels) return [];
    return matchers.flatMap(({ label, op, value }) => {
      if (![...labels, ...TARGET_LABELS].includes(label)) return [`${expression.name}: ${metric} has no label ${label}`];
      const allowed = LABEL_VALUES[label];
      const values = op.endsWith('~') ? value.split('|') : [value];
      return allowed
        ? values.filter((one) => !allowed.includes(one)).map((one) => `${expression.name}: ${label}="${one}" is never exported`)
        : [];
    });
  });
}

const everyLabel = new Set([...[...exported.values()].flat(), ...TARGET_LABELS]);
const unknownGroupingLabels = (expression: NamedExpression) =>
  groupingLabels(expression.expr)
    .filter((label) => !everyLabel.has(label))
    .map((label) => `${expression.name}: ${label}`);

describe('metric names in the dashboard and the rules', () => {
  const dashboard = dashboardExpressions({ job: 'meridian' });
  const rules = ruleExpressions();

  it("come from the server's registry and prom-client's defaults, plus up", () => {
    expect([...exported.keys()]).toEqual(
      expect.arrayContaining([
        'up',
        'http_server_request_duration_seconds_bucket',
        'http_server_active_requests',
        'meridian_build_info',
        'meridian_locale_load_failures_total',
        'meridian_web_vitals_cls_count',
        'process_cpu_seconds_total',
        'process_resident_memory_bytes',
        'nodejs_eventloop_lag_p99_seconds',
        'nodejs_gc_duration_seconds_sum',
      ]),
    );
    expect(exported.get('meridian_locale_load_failures_total')).toEqual(
      expect.arrayContaining(['locale', 'namespace', 'source', 'exported_namespace']),
    );
  });

  it('are all exported by the app, for every dashboard expression', () => {
    expect(dashboard.flatMap((expression) => unknownMetrics(expression, (metric) => exported.has(metric)))).toEqual([]);
  });

  it('are all exported by the app or recorded by the rules file, for every rule', () => {
    expect(rules.flatMap((expression) => unknownMetrics(expression, (metric) => exported.has(metric) || recorded.has(metric)))).toEqual([]);
  });

  it("match only labels the metric carries, with values from the app's fixed lists, and group by known labels only", () => {
    const expressions = [...dashboard, ...rules];

    expect(expressions.flatMap(unknownLabels)).toEqual([]);
    expect(expressions.flatMap(unknownGroupingLabels)).toEqual([]);
  });

  it('catch a made-up metric, label and label value, so the checks above can fail', () => {
    const made = (expr: string) => ({ name: 'made up', expr });

    expect(unknownMetrics(made('sum(rate(http_requests_total[5m])) / up'), (metric) => exported.has(metric))).toEqual([
      'made up: http_requests_total',
    ]);
    expect(unknownLabels(made('http_server_request_duration_seconds_count{locale="ja", route="/about", job="meridian"}'))).toEqual([
      'made up: http_server_request_duration_seconds_count has no label locale',
      'made up: route="/about" is never exported',
    ]);
    expect(unknownGroupingLabels(made('sum by (locale, status_class) (meridian_web_vitals_cls_count)'))).toEqual(['made up: status_class']);
  });
});
