import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import { describe, expect, it } from 'vitest';
import { find, render, renderError } from '../support/chart';
import { promtool, yamlFile } from '../support/promtool';

/** Plain annotations, which promtool compares exactly. */
const ANNOTATIONS = { summary: 'down', description: 'down' };
/** What the chart makes of ANNOTATIONS' summary for release web in namespace site. */
const RENDERED = { ...ANNOTATIONS, summary: 'down (release web in site)' };

const alertsOf = (alerts: Record<string, unknown>) =>
  Object.fromEntries(
    (
      find(
        render({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true, alerts } }),
        'PrometheusRule',
      ) as unknown as IPrometheusRule
    ).spec
      .groups!.flatMap((group) => group.rules ?? [])
      .filter((rule) => rule.alert)
      .map((rule) => [rule.alert!, rule]),
  );

/** promtool's verdict on MeridianDown of `alerts`' rules, for a release whose only target is down from the start. */
function meridianDownAt(alerts: Record<string, unknown>, evalTime: string, firing: boolean) {
  const groups = (
    find(
      render({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true, alerts } }),
      'PrometheusRule',
    ) as unknown as IPrometheusRule
  ).spec.groups;
  return promtool([
    'test',
    'rules',
    yamlFile({
      rule_files: [yamlFile({ groups })],
      evaluation_interval: '10s',
      tests: [
        {
          interval: '10s',
          input_series: [{ series: 'up{job="web-meridian-metrics", namespace="site", instance="10.0.0.1:9464"}', values: '0x30' }],
          alert_rule_test: [
            {
              eval_time: evalTime,
              alertname: 'MeridianDown',
              exp_alerts: firing
                ? [{ exp_labels: { severity: 'critical', job: 'web-meridian-metrics', namespace: 'site' }, exp_annotations: RENDERED }]
                : [],
            },
          ],
        },
      ],
    }),
  ]);
}

describe('per-alert tuning through prometheusRule.alerts', () => {
  it('puts a shortened for into the rendered rule, and the alert fires that much sooner', () => {
    expect(alertsOf({ MeridianDown: { for: '30s' } }).MeridianDown).toMatchObject({ for: '30s' });
    // Down from the start: with for: 30s it fires at 40 s; with the default 2m, not yet.
    const shortened = meridianDownAt({ MeridianDown: { for: '30s', annotations: ANNOTATIONS } }, '40s', true);
    const byDefault = meridianDownAt({}, '40s', false);

    expect(shortened.status, shortened.output).toBe(0);
    expect(byDefault.status, byDefault.output).toBe(0);
  });

  it('takes compound durations, a threshold of 0, and labels and annotations of one alert', () => {
    const alerts = alertsOf({
      MeridianRolloutStuck: { for: '1h30m', labels: { team: 'release' }, annotations: { summary: 'Two builds serve' } },
      MeridianClientManifestFetchFailureBurst: { threshold: 0 },
    });

    expect(alerts.MeridianRolloutStuck).toMatchObject({
      for: '1h30m',
      labels: { team: 'release' },
      annotations: { summary: 'Two builds serve (release web in site)' },
    });
    expect(String(alerts.MeridianClientManifestFetchFailureBurst!.expr)).toMatch(/> 0$/);
  });

  it('puts a window into every range and offset of the alert, so a fault stops firing it that much sooner', () => {
    const alerts = alertsOf({
      MeridianServerLocaleLoadFailure: { window: '1m' },
      MeridianLatencyP99High: { window: '90s' },
    });
    const locale = String(alerts.MeridianServerLocaleLoadFailure!.expr);
    const latency = String(alerts.MeridianLatencyP99High!.expr);

    expect(locale.match(/\[[^\]]+\]/g)).toEqual(['[1m]']);
    expect(locale).toContain('offset 1m');
    expect(locale).not.toContain('10m');
    expect(latency.match(/\[[^\]]+\]/g)).toEqual(['[90s]']);
    // The defaults leave the rules file's expressions as they are.
    expect(String(alertsOf({}).MeridianServerLocaleLoadFailure!.expr)).toMatch(/\[10m\][\s\S]*offset 10m/);
  });

  it("sets the browsers' alerts' minimums of page views and of reports, and their share", () => {
    const expr = String(
      alertsOf({ MeridianChunkReloadBlocked: { minPageViews: 7, minReports: 2, threshold: 0.2, window: '1m' } }).MeridianChunkReloadBlocked!
        .expr,
    );
    expect(expr).toMatch(/meridian_page_loads_total\{[^}]*\}\[1m\]\)\) >= 7\n/);
    expect(expr).toMatch(/event="chunk_reload_blocked"\}\[1m\]\)\) >= 2\n/);
    expect(expr).toMatch(/> 0\.2$/);
    // The defaults: 50 page views, 3 blocked, 1 %.
    const byDefault = String(alertsOf({}).MeridianChunkReloadBlocked!.expr);
    expect(byDefault.match(/>= \d+/g)).toEqual(['>= 50', '>= 3']);
  });

  it("sets the burn-rate alerts' minimum of failed requests, in each of their long windows", () => {
    const alerts = alertsOf({ MeridianErrorBudgetFastBurn: { minErrors: 25 }, MeridianErrorBudgetSlowBurn: { minErrors: 40 } });
    const guards = (expr: unknown) =>
      [...String(expr).matchAll(/status_code=~"5\.\."\}\[(\w+)\]\)\) >= (\d+)/g)].map((m) => `${m[1]} ${m[2]}`);
    expect(guards(alerts.MeridianErrorBudgetFastBurn!.expr)).toEqual(['1h 25', '6h 25']);
    expect(guards(alerts.MeridianErrorBudgetSlowBurn!.expr)).toEqual(['3d 40']);
    // The default: 10.
    expect(guards(alertsOf({}).MeridianErrorBudgetFastBurn!.expr)).toEqual(['1h 10', '6h 10']);
  });

  it('ends every summary naming the release and its namespace, its own summary included', () => {
    const alerts = alertsOf({ MeridianRolloutStuck: { annotations: { summary: 'Two builds serve' } } });

    expect(alerts.MeridianRolloutStuck!.annotations!.summary).toBe('Two builds serve (release web in site)');
    for (const [name, rule] of Object.entries(alerts)) expect(rule.annotations!.summary, name).toMatch(/ \(release web in site\)$/);
  });

  it.each([
    [
      'a window that is no duration',
      { MeridianChunkReloadBlocked: { window: 'a while' } },
      "at '/prometheusRule/alerts/MeridianChunkReloadBlocked/window': 'a while' does not match pattern",
    ],
    [
      'a window of 0',
      { MeridianServerLocaleLoadFailure: { window: '0s' } },
      'prometheusRule.alerts.MeridianServerLocaleLoadFailure.window: 0s is no window',
    ],
    ['a window on an alert that reads none', { MeridianRolloutStuck: { window: '1m' } }, "additional properties 'window' not allowed"],
  ])('refuses %s, naming it', (_label, alerts, expected) => {
    expect(renderError({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true, alerts } })).toContain(expected);
  });

  it.each([
    [
      'a for that is no duration',
      { MeridianDown: { for: 'soon' } },
      "at '/prometheusRule/alerts/MeridianDown/for': 'soon' does not match pattern",
    ],
    [
      'a for without its unit',
      { MeridianTargetDown: { for: '90' } },
      "at '/prometheusRule/alerts/MeridianTargetDown/for': '90' does not match",
    ],
    ['a for with its units out of order', { MeridianDown: { for: '1s1m' } }, "'1s1m' does not match"],
    [
      'a negative threshold',
      { MeridianLatencyP99High: { threshold: -1 } },
      "at '/prometheusRule/alerts/MeridianLatencyP99High/threshold': minimum: got -1",
    ],
    ['an unknown alert name', { MeridianDwn: { enabled: true, for: '1m' } }, "additional properties 'MeridianDwn' not allowed"],
    [
      'a threshold on an alert that compares with none',
      { MeridianDown: { threshold: 1 } },
      "additional properties 'threshold' not allowed",
    ],
  ])('refuses %s, naming it', (_label, alerts, expected) => {
    expect(renderError({ prometheusRule: { alerts } })).toContain(expected);
  });
});
