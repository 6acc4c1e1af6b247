import { describe, expect, it } from 'vitest';
import { readDashboard, rows, substituteVariables } from '../support/grafana-dashboard';
import { observabilityExpressions } from '../support/observability-expressions';
import { ruleGroups } from '../support/prometheus-rules';

describe('observabilityExpressions', () => {
  const expressions = observabilityExpressions({ job: 'meridian', instance: '127\\.0\\.0\\.1:9464' });

  it('names every panel target, query variable and rule once', () => {
    const dashboard = readDashboard();
    const targets = rows(dashboard).flatMap((row) => row.panels.flatMap((panel) => panel.targets ?? []));
    const variables = dashboard.templating.list.filter((variable) => variable.type === 'query');
    const rules = ruleGroups().flatMap((group) => group.rules);

    expect(expressions).toHaveLength(targets.length + variables.length + rules.length);
    expect(new Set(expressions.map((expression) => expression.name)).size).toBe(expressions.length);
    expect(expressions.map((expression) => expression.name)).toEqual(
      expect.arrayContaining(['dashboard variable › instance', 'dashboard › Errors › 404 per second by route › A', 'alert › MeridianDown']),
    );
  });

  it('substitutes the variables as Grafana would, leaving none', () => {
    for (const { name, expr } of expressions) expect(expr, name).not.toMatch(/\$|\[\[/);
    expect(expressions.find((expression) => expression.name === 'dashboard › Latency › p99 latency by route › A')?.expr).toBe(
      'histogram_quantile(0.99, sum by (route, le) (rate(http_server_request_duration_seconds_bucket{job="meridian", namespace=~".*", instance=~"127\\.0\\.0\\.1:9464", route!="unparsed"}[1m])))',
    );
  });

  it('refuses a variable it does not know rather than leave it in', () => {
    expect(() => substituteVariables('rate(up{pod="$pod"}[$__interval])', { job: 'meridian' })).toThrow('unknown variable $pod');
  });
});
