import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IAlertmanagerConfig } from '@kubernetes-models/prometheus-operator/monitoring.coreos.com/v1alpha1/AlertmanagerConfig';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { find, kinds, render, renderError, type RenderOptions } from '../support/chart';
import { unknownFields } from '../support/kubernetes-fields';
import { schemaViolations } from '../support/kubernetes-schemas';
import { ALERTMANAGER_FILE, matcherObjects, type AlertmanagerFile } from '../support/alertmanager';

/** A cluster that serves the Operator's AlertmanagerConfig, as `helm template` is told of it. */
const WITH_CRD: RenderOptions = { args: ['--api-versions', 'monitoring.coreos.com/v1alpha1/AlertmanagerConfig'] };
const file = parse(readFileSync(ALERTMANAGER_FILE, 'utf8')) as AlertmanagerFile;

/** The values example docs/operations.md gives for Operator users (PagerDuty and Slack). */
function operationsGuideExample(): Record<string, unknown> {
  const guide = readFileSync(path.join(ROOT, 'docs', 'operations.md'), 'utf8');
  const section = guide.slice(guide.indexOf('## Alert routing'), guide.indexOf('## Rollout'));
  const block = [...section.matchAll(/```yaml\n([\s\S]*?)```/g)]
    .map((match) => match[1]!)
    .find((yaml) => yaml.includes('alertmanagerConfig:'));
  if (!block) throw new Error('docs/operations.md, Alert routing: no values example with alertmanagerConfig');
  return parse(block) as Record<string, unknown>;
}

const configOf = (values: Record<string, unknown>) =>
  find(render(values, WITH_CRD), 'AlertmanagerConfig') as unknown as IAlertmanagerConfig;

describe('the AlertmanagerConfig', () => {
  const example = operationsGuideExample();
  const config = configOf(example);

  it('is off by default', () => {
    expect(kinds(render({}, WITH_CRD))).not.toContain('AlertmanagerConfig');
  });

  it('renders the operations guide’s PagerDuty and Slack example valid against the Prometheus Operator’s schema', () => {
    const objects = render(example, WITH_CRD);

    expect(objects.flatMap(schemaViolations)).toEqual([]);
    expect(unknownFields(objects)).toEqual([]);
    expect(config.metadata?.labels).toMatchObject({ alertmanagerConfig: 'main', 'app.kubernetes.io/instance': 'web' });
    expect(config.spec.receivers).toEqual((example.alertmanagerConfig as { receivers: unknown }).receivers);
  });

  it('routes only this release’s alerts, grouped per release with the file’s timings', () => {
    const meridianRoute = file.route.routes[0]!;

    expect(config.spec.route).toMatchObject({
      matchers: [
        { name: 'namespace', value: 'site', matchType: '=' },
        { name: 'job', value: 'web-meridian-metrics', matchType: '=' },
      ],
      groupBy: ['namespace', 'job'],
      groupWait: meridianRoute.group_wait,
      groupInterval: meridianRoute.group_interval,
    });
    expect(meridianRoute.group_by).toEqual(['namespace', 'job']);
  });

  it('sends each severity, as prometheusRule.severities maps it, to the receiver the values name', () => {
    const mapped = configOf({ ...example, prometheusRule: { enabled: true, severities: { critical: 'P1', warning: 'P3' } } });

    expect(mapped.spec.route?.receiver).toBe('slack');
    expect(mapped.spec.route?.routes).toEqual([
      { matchers: [{ name: 'severity', value: 'P1', matchType: '=' }], receiver: 'pagerduty', repeatInterval: '1h' },
      { matchers: [{ name: 'severity', value: 'P3', matchType: '=' }], receiver: 'slack', repeatInterval: '12h' },
    ]);
  });

  it('inhibits the release’s other alerts while MeridianDown fires, with the file’s inhibit rules', () => {
    expect(config.spec.inhibitRules).toEqual(
      file.inhibit_rules.map((rule) => ({
        sourceMatch: matcherObjects(rule.source_matchers),
        targetMatch: matcherObjects(rule.target_matchers),
        equal: rule.equal,
      })),
    );
    expect(config.spec.inhibitRules?.[0]).toEqual({
      sourceMatch: [{ name: 'alertname', value: 'MeridianDown', matchType: '=' }],
      targetMatch: [{ name: 'alertname', value: 'MeridianDown', matchType: '!=' }],
      equal: ['namespace', 'job'],
    });
  });

  it('fails clearly on a cluster without the AlertmanagerConfig CRD', () => {
    expect(renderError(example)).toContain(
      "alertmanagerConfig.enabled needs the Prometheus Operator's AlertmanagerConfig CRD (monitoring.coreos.com/v1alpha1/AlertmanagerConfig), which this cluster does not serve",
    );
  });

  it('refuses a severity without a receiver, or naming one that is not listed', () => {
    const withReceivers = (receiverBySeverity: Record<string, string>) => ({
      alertmanagerConfig: { enabled: true, receivers: [{ name: 'pager' }], receiverBySeverity },
    });

    expect(renderError(withReceivers({ critical: 'pager', warning: '' }), WITH_CRD)).toContain(
      'alertmanagerConfig.receiverBySeverity.warning="" names no receiver of alertmanagerConfig.receivers (pager)',
    );
    expect(renderError(withReceivers({ critical: 'pagr', warning: 'pager' }), WITH_CRD)).toContain(
      'alertmanagerConfig.receiverBySeverity.critical="pagr" names no receiver',
    );
    expect(renderError({ alertmanagerConfig: { receivers: [{ pagerdutyConfigs: [] }] } })).toContain(
      "at '/alertmanagerConfig/receivers/0'",
    );
  });
});
