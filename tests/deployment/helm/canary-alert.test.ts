import { describe, expect, it } from 'vitest';
import { find, render } from '../support/chart';
import type { RuleGroup } from '../support/prometheus-rules';
import { promtool, yamlFile } from '../support/promtool';

// MeridianCanaryAborted reads Argo Rollouts' rollout_info, which its controller exports per
// Rollout: scraped as a target of its own namespace, the Rollout's namespace arrives as
// exported_namespace; with honor_labels, as namespace.
const values = {
  rollout: { strategy: 'canary', canary: { analysis: { prometheusAddress: 'http://prometheus:9090' } } },
  serviceMonitor: { enabled: true },
  prometheusRule: { enabled: true },
};
const canaryGroup = () =>
  (find(render(values), 'PrometheusRule').spec as { groups: RuleGroup[] }).groups.filter((group) => group.name === 'meridian.canary');

const info = (labels: string, phase: string) => ({
  series: `rollout_info{${labels}, strategy="canary", traffic_router="", phase="${phase}"}`,
  values: '1x10',
});
const CONTROLLER = 'job="argo-rollouts-metrics", namespace="argo-rollouts", exported_namespace="site"';
const FIRING = [
  {
    exp_labels: { severity: 'warning', job: 'web-meridian-metrics', namespace: 'site', name: 'web-meridian' },
    exp_annotations: {
      summary: 'The canary of Meridian release web-meridian was aborted: its pods serve the stable build again',
      description:
        'In site, Argo Rollouts aborted the canary of Rollout web-meridian: an analysis failed (or someone ran kubectl argo rollouts abort). Traffic is back on the stable build; the release stays Degraded until it is retried, rolled back or upgraded.',
    },
  },
];

function firesOn(series: { series: string; values: string }[], expected: unknown[]) {
  const file = yamlFile({
    rule_files: [yamlFile({ groups: canaryGroup() })],
    evaluation_interval: '1m',
    tests: [
      {
        interval: '1m',
        input_series: series,
        alert_rule_test: [{ eval_time: '5m', alertname: 'MeridianCanaryAborted', exp_alerts: expected }],
      },
    ],
  });
  return promtool(['test', 'rules', file]);
}

describe('MeridianCanaryAborted', () => {
  it('is rendered only with rollout.strategy canary', () => {
    const groups = (spec: unknown) => (spec as { groups: RuleGroup[] }).groups.map((group) => group.name);
    expect(
      groups(find(render({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true } }), 'PrometheusRule').spec),
    ).not.toContain('meridian.canary');
    expect(canaryGroup()).toHaveLength(1);
  });

  it.each<[string, { series: string; values: string }[], unknown[]]>([
    [
      "fires for the release's aborted Rollout, scraped from the controller's namespace",
      [info(`${CONTROLLER}, name="web-meridian"`, 'Abort')],
      FIRING,
    ],
    ['fires the same with honor_labels', [info('job="argo-rollouts", namespace="site", name="web-meridian"', 'Abort')], FIRING],
    ['stays silent while the canary progresses or pauses', [info(`${CONTROLLER}, name="web-meridian"`, 'Paused')], []],
    ["stays silent for another release's abort", [info(`${CONTROLLER}, name="other-meridian"`, 'Abort')], []],
    [
      'stays silent for an abort in another namespace',
      [info('job="argo-rollouts-metrics", namespace="argo-rollouts", exported_namespace="staging", name="web-meridian"', 'Abort')],
      [],
    ],
  ])('%s', (_case, series, expected) => {
    const result = firesOn(series, expected);
    expect(result.status, result.output).toBe(0);
  });
});

describe('MeridianRolloutStuck under canary', () => {
  const rolloutGroup = (strategyValues: Record<string, unknown>) =>
    (find(render(strategyValues), 'PrometheusRule').spec as { groups: RuleGroup[] }).groups.filter(
      (group) => group.name === 'meridian.rollout',
    );
  // Two builds serving for 40 minutes.
  const builds = ['a', 'b'].map((build) => ({
    series: `meridian_build_info{job="web-meridian-metrics", namespace="site", instance="${build}", build_id="${build}"}`,
    values: '1x40',
  }));
  const stuckAt35m = (groups: RuleGroup[], series: { series: string; values: string }[], expected: unknown[]) =>
    promtool([
      'test',
      'rules',
      yamlFile({
        rule_files: [yamlFile({ groups })],
        evaluation_interval: '1m',
        tests: [
          {
            interval: '1m',
            input_series: [...builds, ...series],
            alert_rule_test: [{ eval_time: '35m', alertname: 'MeridianRolloutStuck', exp_alerts: expected }],
          },
        ],
      }),
    ]);
  const STUCK = [
    {
      exp_labels: { severity: 'warning', job: 'web-meridian-metrics', namespace: 'site' },
      exp_annotations: {
        summary: '2 Meridian builds have been serving together for 30 minutes (release web in site)',
        description:
          'In site, job web-meridian-metrics, pods report more than one build_id in meridian_build_info for over 30 minutes: a rollout is stuck half-way.',
      },
    },
  ];

  it.each<[string, { series: string; values: string }[], unknown[]]>([
    [
      'stays silent while the Rollout is paused: the canary waits for a person on purpose',
      [info(`${CONTROLLER}, name="web-meridian"`, 'Paused')],
      [],
    ],
    ['fires while it progresses', [info(`${CONTROLLER}, name="web-meridian"`, 'Progressing')], STUCK],
    ["fires while another release's Rollout is paused", [info(`${CONTROLLER}, name="other-meridian"`, 'Paused')], STUCK],
  ])('%s', (_case, series, expected) => {
    const result = stuckAt35m(rolloutGroup(values), series, expected);
    expect(result.status, result.output).toBe(0);
  });

  it('fires on two builds whatever Argo says, without canary', () => {
    const plain = rolloutGroup({ serviceMonitor: { enabled: true }, prometheusRule: { enabled: true } });
    const result = stuckAt35m(plain, [info(`${CONTROLLER}, name="web-meridian"`, 'Paused')], STUCK);
    expect(result.status, result.output).toBe(0);
  });
});
