import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IPrometheusRule } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/PrometheusRule';
import type { IServiceMonitor } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1/ServiceMonitor';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { runSync } from '../../../tools/lib/command.mjs';
import { CHART_DIR, EVERY_FEATURE_VALUES, find, render, renderError } from '../support/chart';
import { readDashboard, type Dashboard } from '../support/grafana-dashboard';
import { chartOnlyAlertingRules, RULES_FILE, type Rule } from '../support/prometheus-rules';
import { vectorSelectors } from '../support/promql';
import { promtool, yamlFile } from '../support/promtool';

const chart = parse(readFileSync(path.join(CHART_DIR, 'Chart.yaml'), 'utf8')) as { version: string; appVersion: string };
const fileRules = () => parse(readFileSync(RULES_FILE, 'utf8')) as { groups: { name: string; rules: Rule[] }[] };
/** Plain annotations, so promtool can compare the alerts' exactly. */
const DOWN_ANNOTATIONS = { summary: 'down', description: 'down', runbook_url: 'runbook' };
const MONITORING = {
  serviceMonitor: { enabled: true },
  grafanaDashboard: { enabled: true },
  prometheusRule: {
    enabled: true,
    alerts: {
      MeridianDown: { enabled: true, for: '2m', annotations: DOWN_ANNOTATIONS },
      MeridianTargetDown: { enabled: true, for: '5m', annotations: DOWN_ANNOTATIONS },
    },
  },
};

describe('monitoring objects', () => {
  const everything = render({}, { files: [EVERY_FEATURE_VALUES] });

  it('are all off by default', () => {
    const kinds = render().map((object) => `${object.kind}/${object.metadata.name}`);

    expect(kinds).not.toContain('ServiceMonitor/web-meridian');
    expect(kinds).not.toContain('PrometheusRule/web-meridian');
    expect(kinds).not.toContain('ConfigMap/web-meridian-dashboard');
  });

  it('has the ServiceMonitor scrape /metrics of the metrics Service alone, as the job named after that Service', () => {
    const monitor = find(everything, 'ServiceMonitor') as unknown as IServiceMonitor;
    const metricsService = find(everything, 'Service', '-metrics');
    const webService = find(everything, 'Service', 'web-meridian');
    const selects = (labels: Record<string, string> = {}) =>
      Object.entries(monitor.spec.selector.matchLabels ?? {}).every(([key, value]) => labels[key] === value);

    expect(monitor.metadata?.labels?.release).toBe('kube-prometheus-stack');
    expect(selects(metricsService.metadata.labels)).toBe(true);
    expect(selects(webService.metadata.labels)).toBe(false);
    expect(monitor.spec.namespaceSelector).toEqual({ matchNames: ['web-prod'] });
    // Without jobLabel the Prometheus Operator names the job after the Service: one job per release.
    expect(monitor.spec.jobLabel).toBeUndefined();
    expect(metricsService.metadata.name).toBe('web-meridian-metrics');
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

  it('embeds the rule groups of files/prometheus-rules.yaml, every `job="meridian"` scoped to the release, no runbook link by default', () => {
    const rule = find(
      render({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true } }),
      'PrometheusRule',
    ) as unknown as IPrometheusRule;
    const scope = 'job="web-meridian-metrics", namespace="site"';
    const expected = fileRules();
    for (const entry of expected.groups.flatMap((group) => group.rules)) {
      entry.expr = entry.expr.replaceAll('job="meridian"', scope);
      if (entry.record === 'meridian:slo_availability_objective') entry.labels = { job: 'web-meridian-metrics', namespace: 'site' };
      if (entry.alert) {
        entry.for ??= '0s';
        // An alert with a threshold has it put back at the end of its trimmed expression.
        if (
          [
            'MeridianLatencyP99High',
            'MeridianTrafficDrop',
            'MeridianClientLocaleLoadFailureBurst',
            'MeridianClientManifestFetchFailureBurst',
            'MeridianChunkReloadBlocked',
            'MeridianEventLoopLagHigh',
          ].includes(entry.alert)
        )
          entry.expr = entry.expr.trim();
        // The file's links are relative; with no runbookBaseUrl there is nothing to open, so none.
        delete entry.annotations!.runbook_url;
        // The summary names the release it is about.
        entry.annotations!.summary += ' (release web in site)';
      }
    }

    expect(rule.spec.groups).toEqual(expected.groups);
  });

  it('renders rules that pass promtool check rules', () => {
    const rule = find(everything, 'PrometheusRule') as unknown as IPrometheusRule;
    const result = promtool(['check', 'rules', yamlFile({ groups: rule.spec.groups })]);

    expect(result.status, result.output).toBe(0);
  });

  it('sets the objective, each alert’s for, threshold, labels (severity mapped) and annotations from the values', () => {
    const rule = find(everything, 'PrometheusRule') as unknown as IPrometheusRule;
    const alerts = Object.fromEntries(
      rule.spec
        .groups!.flatMap((group) => group.rules ?? [])
        .filter((entry) => entry.alert)
        .map((entry) => [entry.alert!, entry]),
    );
    const objective = rule.spec
      .groups!.flatMap((group) => group.rules ?? [])
      .find((entry) => entry.record === 'meridian:slo_availability_objective');

    expect(objective?.expr).toBe('vector(0.999)');
    expect(
      find(
        render({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true, availabilityObjective: 0.9995 } }),
        'PrometheusRule',
      ).spec,
    ).toMatchObject({
      groups: expect.arrayContaining([
        expect.objectContaining({ rules: expect.arrayContaining([expect.objectContaining({ expr: 'vector(0.9995)' })]) }),
      ]),
    });
    expect(Object.keys(alerts)).not.toContain('MeridianEventLoopLagHigh');
    expect(alerts.MeridianLatencyP99High).toMatchObject({ for: '15m', labels: { severity: 'ticket', team: 'web-performance' } });
    expect(String(alerts.MeridianLatencyP99High!.expr).trim()).toMatch(/\) > 0\.5$/);
    expect(alerts.MeridianDown!.labels).toEqual({ severity: 'page', team: 'web' });
    expect(alerts.MeridianDown!.annotations).toMatchObject({
      dashboard: 'https://grafana.example.com/d/meridian',
      summary: expect.any(String),
    });
    expect(Object.keys(alerts)).toHaveLength(
      fileRules()
        .groups.flatMap((group) => group.rules)
        .filter((entry) => entry.alert).length - 1,
    );
  });

  it('has values for every alert of the rules file, with its for and threshold as defaults', () => {
    const values = parse(readFileSync(path.join(CHART_DIR, 'values.yaml'), 'utf8')) as {
      prometheusRule: { alerts: Record<string, { for: string; threshold?: number }> };
    };
    const fileAlerts = fileRules()
      .groups.flatMap((group) => group.rules)
      .filter((entry) => entry.alert);

    // And the one alert the chart adds itself, on Argo Rollouts' metrics (support/prometheus-rules.ts).
    const chartAlerts = chartOnlyAlertingRules().map((entry) => entry.alert);
    expect(chartAlerts).toEqual(['MeridianCanaryAborted']);
    expect(Object.keys(values.prometheusRule.alerts).sort()).toEqual([...fileAlerts.map((entry) => entry.alert), ...chartAlerts].sort());
    for (const entry of fileAlerts) {
      const settings = values.prometheusRule.alerts[entry.alert!]!;
      expect(settings.for, entry.alert).toBe(entry.for ?? '0s');
      if (settings.threshold !== undefined) expect(entry.expr.trim(), entry.alert).toMatch(new RegExp(`> ${settings.threshold}$`));
    }
  });

  it('takes runbook links from a templated base URL, one per alert, or leaves them out', () => {
    const links = (runbookBaseUrl: string) =>
      (
        find(
          render({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true, runbookBaseUrl } }),
          'PrometheusRule',
        ) as unknown as IPrometheusRule
      ).spec.groups!.flatMap((group) =>
        (group.rules ?? []).flatMap((entry) => (entry.annotations?.runbook_url ? [entry.annotations.runbook_url] : [])),
      );
    const alertCount = fileRules()
      .groups.flatMap((group) => group.rules)
      .filter((entry) => entry.alert).length;

    expect(links('https://github.com/acme/meridian/blob/meridian-{{ .Chart.Version }}/')).toContain(
      `https://github.com/acme/meridian/blob/meridian-${chart.version}/docs/runbooks.md#meridiandown`,
    );
    expect(links('https://docs.acme.dev/meridian/{{ .Chart.AppVersion }}/')).toHaveLength(alertCount);
    expect(links('')).toEqual([]);
  });

  it('refuses an objective outside (0, 1), a runbook base URL not ending in a slash, an unknown alert and a wrong threshold type', () => {
    expect(renderError({ prometheusRule: { enabled: true, availabilityObjective: 1 } })).toContain('/prometheusRule/availabilityObjective');
    expect(renderError({ prometheusRule: { enabled: true, runbookBaseUrl: 'https://git.example.com/meridian' } })).toContain(
      '/prometheusRule/runbookBaseUrl',
    );
    expect(renderError({ prometheusRule: { alerts: { MeridianTypo: { enabled: false, for: '1m' } } } })).toContain(
      "additional properties 'MeridianTypo' not allowed",
    );
    expect(renderError({ prometheusRule: { alerts: { MeridianLatencyP99High: { threshold: '1s' } } } })).toContain(
      '/prometheusRule/alerts/MeridianLatencyP99High/threshold',
    );
    expect(renderError({ prometheusRule: { alerts: { MeridianDown: { for: 'soon' } } } })).toContain(
      '/prometheusRule/alerts/MeridianDown/for',
    );
  });

  it('embeds files/grafana-dashboard.json as the release’s own dashboard: uid, title and file name, job and namespace fixed', () => {
    const configMap = find(everything, 'ConfigMap', '-dashboard');
    const data = configMap.data as Record<string, string>;
    const dashboard = JSON.parse(data['meridian-web-prod-web-meridian.json']!) as Dashboard;
    const file = readDashboard();
    const variables = Object.fromEntries(dashboard.templating.list.map((variable) => [variable.name, variable]));

    expect(Object.keys(data)).toEqual(['meridian-web-prod-web-meridian.json']);
    expect(configMap.metadata.labels?.grafana_dashboard).toBe('1');
    expect(configMap.metadata.annotations).toEqual({ grafana_folder: 'Meridian', 'example.com/owner': 'web-team' });
    expect(configMap.metadata.namespace).toBe('monitoring');
    expect(dashboard.uid).toBe('web-prod-web-meridian');
    expect(dashboard.title).toBe('Meridian (web-prod/web)');
    expect(variables.job).toMatchObject({ type: 'constant', query: 'web-meridian-metrics', hide: 2 });
    expect(variables.namespace).toMatchObject({ type: 'constant', query: 'web-prod', hide: 2 });
    expect(variables.instance).toEqual(file.templating.list.find((variable) => variable.name === 'instance'));
    expect(dashboard.panels).toEqual(file.panels);
  });

  it('keeps a long release’s dashboard uid within Grafana’s 40 characters, still unique', () => {
    const uid = (release: string) =>
      (
        JSON.parse(
          Object.values(
            find(
              render({ grafanaDashboard: { enabled: true } }, { release, namespace: 'a-rather-long-namespace-name' }),
              'ConfigMap',
              '-dashboard',
            ).data as Record<string, string>,
          )[0]!,
        ) as Dashboard
      ).uid;

    expect(uid('storefront-production-eu')).toHaveLength(40);
    expect(uid('storefront-production-eu')).not.toBe(uid('storefront-production-us'));
  });

  it('puts the dashboard ConfigMap in the release namespace unless told otherwise', () => {
    expect(find(render({ grafanaDashboard: { enabled: true } }), 'ConfigMap', '-dashboard').metadata.namespace).toBe('site');
  });
});

describe('two releases side by side', () => {
  const releases = [
    { release: 'web', namespace: 'staging' },
    { release: 'web', namespace: 'production' },
    { release: 'shop', namespace: 'production' },
  ];
  const rendered = releases.map((where) => ({ ...where, job: `${where.release}-meridian-metrics`, objects: render(MONITORING, where) }));

  it('scope every rule selector to their own job and namespace, recorded series included', () => {
    for (const { job, namespace, objects } of rendered) {
      const rule = find(objects, 'PrometheusRule') as unknown as IPrometheusRule;
      for (const entry of rule.spec.groups!.flatMap((group) => group.rules ?? [])) {
        if (entry.record === 'meridian:slo_availability_objective') {
          expect(entry.labels).toEqual({ job, namespace });
          continue;
        }
        const selectors = vectorSelectors(String(entry.expr));
        expect(selectors.length, entry.alert ?? entry.record).toBeGreaterThan(0);
        for (const selector of selectors) {
          expect(selector.matchers, `${namespace}/${job} ${entry.alert ?? entry.record}`).toEqual(
            expect.arrayContaining([
              { label: 'job', op: '=', value: job },
              { label: 'namespace', op: '=', value: namespace },
            ]),
          );
        }
      }
    }
  });

  it('scope every dashboard query to their own job and namespace, under their own uids', () => {
    const uids = rendered.map(({ objects }) => {
      const dashboard = JSON.parse(Object.values(find(objects, 'ConfigMap', '-dashboard').data as Record<string, string>)[0]!) as Dashboard;
      const constants = Object.fromEntries(
        dashboard.templating.list.filter((variable) => variable.type === 'constant').map((variable) => [variable.name, variable.query]),
      );
      return { uid: dashboard.uid, constants };
    });

    expect(uids.map(({ constants }) => constants)).toEqual(rendered.map(({ job, namespace }) => ({ job, namespace })));
    expect(new Set(uids.map(({ uid }) => uid)).size).toBe(releases.length);
  });

  it('alert only for the release whose series are bad, when Prometheus loads both releases’ rules', () => {
    const ruleFiles = rendered.map(({ objects }) =>
      yamlFile({ groups: (find(objects, 'PrometheusRule') as unknown as IPrometheusRule).spec.groups }),
    );
    const [staging, production] = rendered;
    const unitTests = yamlFile({
      rule_files: ruleFiles,
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [
            { series: `up{job="${staging!.job}", namespace="staging", instance="10.0.0.1:9464"}`, values: '0x20' },
            { series: `up{job="${production!.job}", namespace="production", instance="10.0.1.1:9464"}`, values: '1x20' },
            { series: `up{job="${rendered[2]!.job}", namespace="production", instance="10.0.2.1:9464"}`, values: '1x20' },
          ],
          alert_rule_test: [
            {
              eval_time: '10m',
              alertname: 'MeridianDown',
              exp_alerts: [
                {
                  exp_labels: { severity: 'critical', job: staging!.job, namespace: 'staging' },
                  exp_annotations: { ...DOWN_ANNOTATIONS, summary: 'down (release web in staging)' },
                },
              ],
            },
            {
              eval_time: '10m',
              alertname: 'MeridianTargetDown',
              exp_alerts: [
                {
                  exp_labels: { severity: 'warning', job: staging!.job, namespace: 'staging', instance: '10.0.0.1:9464' },
                  exp_annotations: { ...DOWN_ANNOTATIONS, summary: 'down (release web in staging)' },
                },
              ],
            },
          ],
        },
      ],
    });
    const result = promtool(['test', 'rules', unitTests]);

    expect(production!.namespace).toBe('production');
    expect(result.status, result.output).toBe(0);
  });
});

describe('files/prometheus-rules.yaml', () => {
  it('passes promtool check rules', () => {
    const result = runSync('promtool', ['check', 'rules', RULES_FILE], { check: false });

    expect(result.exitCode, result.stdout + result.stderr).toBe(0);
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

    expect(expressions).toContainEqual(
      expect.stringMatching(
        /^sum by \(route\) \(rate\(http_server_request_duration_seconds_count\{.*job="\$job".*instance=~"\$instance".*\}\[\$__rate_interval\]\)\)$/,
      ),
    );
  });
});
