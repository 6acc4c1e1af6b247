import { describe, expect, test } from 'vitest';
import { gamedayAlertmanagerConfig } from '../../../../tools/gameday/alertmanager-config.mjs';

describe("the game day's Alertmanager configuration", () => {
  const config = gamedayAlertmanagerConfig({ jobs: ['a-meridian-metrics', 'b.c-meridian-metrics'], webhookUrl: 'http://127.0.0.1:9' });

  test("is the chart's file with the releases' jobs in its route and shorter group timings", () => {
    const [meridian] = config.route.routes ?? [];
    expect(meridian?.matchers).toEqual(['job=~"a-meridian-metrics|b\\.c-meridian-metrics"']);
    expect(meridian).toMatchObject({ group_by: ['namespace', 'job'], group_wait: '5s', group_interval: '5s' });
    expect(meridian?.routes?.map((route) => route.receiver)).toEqual(['meridian-critical', 'meridian-warning']);
  });

  test('keeps its inhibit rules, MeridianDown over the release’s other alerts', () => {
    expect(config.inhibit_rules).toContainEqual({
      source_matchers: ['alertname="MeridianDown"'],
      target_matchers: ['alertname!="MeridianDown"'],
      equal: ['namespace', 'job'],
    });
  });

  test('sends every receiver, resolved notifications included, to the webhook under its own name', () => {
    expect(config.receivers.map((receiver) => receiver.webhook_configs)).toEqual(
      ['unrouted', 'meridian-critical', 'meridian-warning'].map((name) => [{ url: `http://127.0.0.1:9/${name}`, send_resolved: true }]),
    );
  });
});
