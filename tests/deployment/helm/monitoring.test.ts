import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { EVERY_FEATURE_VALUES, find, render, renderError } from '../support/chart';
import { DASHBOARD_FILE, readDashboard } from '../support/grafana-dashboard';
import { RULES_FILE } from '../support/prometheus-rules';

describe('monitoring objects', () => {
  const everything = render({}, { files: [EVERY_FEATURE_VALUES] });

  it('are all off by default', () => {
    const kinds = render().map((object) => `${object.kind}/${object.metadata.name}`);

    expect(kinds).not.toContain('ServiceMonitor/web-meridian');
    expect(kinds).not.toContain('PrometheusRule/web-meridian');
    expect(kinds).not.toContain('ConfigMap/web-meridian-dashboard');
  });

  it('has the ServiceMonitor scrape /metrics of the metrics Service alone, as job "meridian"', () => {
    const monitor = find(everything, 'ServiceMonitor') as unknown as IServiceMonitor;
    const metricsService = find(everything, 'Service', '-metrics');
    const webService = find(everything, 'Service', 'web-meridian');
    const selects = (labels: Record<string, string> = {}) =>
      Object.entries(monitor.spec.selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);

    expect(monitor.metadata?.labels?.release).toBe('kube-prometheus-stack');
    expect(selects(metricsService.metadata.labels)).toBe(true);
    expect(selects(webService.metadata.labels)).toBe(false);
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['site'] });
    expect(monitor.spec.jobLabel).toBe('app.kubernetes.io/name');
    expect(metricsService.metadata.labels?.['app.kubernetes.io/name']).toBe('meridian');
    expect(monitor.spec.endpoints).toEqual([
      {
        port: 'metrics',
        path: '/metrics',
        interval: '15s',
        scrapeTimeout: '5s',
        metricRelabelings: [{ action: 'drop', sourceLabels: ['__name__'], regex: 'nodejs_gc_.*' }],
      },
    ]);
  });

  it('embeds the rule groups of files/prometheus-rules.yaml unchanged in the PrometheusRule', () => {
    const rule = find(everything, 'PrometheusRule') as unknown as IPrometheusRule;

    expect(rule.metadata?.labels?.release).toBe('kube-prometheus-stack');
    expect(rule.spec.groups).toEqual(parse(readFileSync(RULES_FILE, 'utf8')).groups);
  });

  it('embeds files/grafana-dashboard.json unchanged in a ConfigMap the Grafana sidecar picks up', () => {
    const dashboard = find(everything, 'ConfigMap', '-dashboard');

    expect(dashboard.metadata.labels?.grafana_dashboard).toBe('1');
    expect(dashboard.metadata.annotations).toEqual({ grafana_folder: 'Meridian' });
    expect(dashboard.metadata.namespace).toBe('monitoring');
    expect(JSON.parse((dashboard.data as Record<string, string>)['meridian.json']!)).toEqual(JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')));
  });

  it('sets the availability objective and the runbook base URL from the values, and nothing else of the rules', () => {
    const values = { prometheusRule: { enabled: true, availabilityObjective: 0.9995, runbookBaseUrl: 'https://git.example.com/meridian/blob/main/' } };
    const rule = find(render(values), 'PrometheusRule') as unknown as IPrometheusRule;
    const expected = parse(readFileSync(RULES_FILE, 'utf8')) as IPrometheusRule['spec'];
    for (const entry of expected.groups!.flatMap((group) => group.rules ?? [])) {
      if (entry.record === 'meridian:slo_availability_objective') entry.expr = 'vector(0.9995)';
      if (entry.annotations?.runbook_url) entry.annotations.runbook_url = `https://git.example.com/meridian/blob/main/${entry.annotations.runbook_url}`;
    }

    expect(rule.spec.groups).toEqual(expected.groups);
  });

  it('refuses an objective outside (0, 1) and a runbook base URL not ending in a slash', () => {
    expect(renderError({ prometheusRule: { enabled: true, availabilityObjective: 1 } })).toContain('/prometheusRule/availabilityObjective');
    expect(renderError({ prometheusRule: { enabled: true, runbookBaseUrl: 'https://git.example.com/meridian' } })).toContain('/prometheusRule/runbookBaseUrl');
  });

  it('puts the dashboard ConfigMap in the release namespace unless told otherwise', () => {
    expect(find(render({ grafanaDashboard: { enabled: true } }), 'ConfigMap', '-dashboard').metadata.namespace).toBe('site');
  });
});

describe('files/prometheus-rules.yaml', () => {
  it('passes promtool check rules', () => {
    const result = spawnSync('promtool', ['check', 'rules', RULES_FILE], { encoding: 'utf8' });

    expect(result.status, result.stdout + result.stderr).toBe(0);
  });

  it('alerts MeridianTargetDown when a meridian target is down for 5 minutes, with severity, summary and runbook', () => {
    const { groups } = parse(readFileSync(RULES_FILE, 'utf8')) as { groups: { rules: Record<string, unknown>[] }[] };
    const alert = groups.flatMap((group) => group.rules).find((rule) => rule.alert === 'MeridianTargetDown');

    expect(alert).toMatchObject({
      expr: 'up{job="meridian"} == 0',
      for: '5m',
      labels: { severity: expect.any(String) },
      annotations: { summary: expect.any(String), runbook_url: expect.stringMatching(/docs\/runbooks\.md#meridiantargetdown$/) },
    });
  });
});

describe('files/grafana-dashboard.json', () => {
  const dashboard = readDashboard();

  it('is the meridian dashboard in a current schema, with job and instance variables', () => {
    expect(dashboard.uid).toBe('meridian');
    expect(dashboard.schemaVersion).toBeGreaterThanOrEqual(39);
    expect(dashboard.templating.list.map((variable) => variable.name)).toEqual(expect.arrayContaining(['job', 'instance']));
  });

  it('charts requests per second by route, filtered by the variables', () => {
    const expressions = dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));

    expect(expressions).toContainEqual(expect.stringMatching(/^sum by \(route\) \(rate\(http_server_request_duration_seconds_count\{.*job="\$job".*instance=~"\$instance".*\}\[\$__rate_interval\]\)\)$/));
  });
});
