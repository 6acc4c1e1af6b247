import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ALERTMANAGER_FILE, matcherObjects, type AlertmanagerFile, type AlertmanagerRoute } from '../support/alertmanager';
import { alertingRules } from '../support/prometheus-rules';

const file = parse(readFileSync(ALERTMANAGER_FILE, 'utf8')) as AlertmanagerFile;
const PROMETHEUS_DURATION = /^(0|([0-9]+y)?([0-9]+w)?([0-9]+d)?([0-9]+h)?([0-9]+m)?([0-9]+s)?([0-9]+ms)?)$/;

const allRoutes = (route: AlertmanagerRoute): AlertmanagerRoute[] => [route, ...(route.routes ?? []).flatMap(allRoutes)];

/** The labels an alert's expression keeps through its aggregations: those of every `by (…)`, or all when it has none. */
const aggregationLabels = (expr: string): string[][] =>
  [...expr.matchAll(/\bby\s*\(([^)]*)\)/g)].map((match) => match[1]!.split(',').map((label) => label.trim()));

describe('files/alertmanager.yaml, the plain Alertmanager configuration', () => {
  const meridian = file.route.routes[0]!;

  it('is a whole configuration: a root route to a receiver, every receiver it names listed, and used', () => {
    const named = allRoutes(file.route).flatMap((route) => (route.receiver ? [route.receiver] : []));

    expect(file.route.matchers, 'a root route takes every alert').toBeUndefined();
    expect(file.receivers.map((receiver) => receiver.name).sort()).toEqual([...new Set(named)].sort());
  });

  it('writes every matcher as Alertmanager parses it, and every timing as a duration', () => {
    const matchers = [
      ...allRoutes(file.route).flatMap((route) => route.matchers ?? []),
      ...file.inhibit_rules.flatMap((rule) => [...rule.source_matchers, ...rule.target_matchers]),
    ];
    const timings = allRoutes(file.route).flatMap((route) => [route.group_wait, route.group_interval, route.repeat_interval]);

    expect(matchers.length).toBeGreaterThan(5);
    expect(() => matcherObjects(matchers)).not.toThrow();
    for (const timing of timings.filter(Boolean)) expect(timing).toMatch(PROMETHEUS_DURATION);
  });

  it('routes the job every rule selects, by each severity the rules use', () => {
    const severities = [...new Set(alertingRules().map((rule) => rule.labels!.severity))].sort();

    expect(matcherObjects(meridian.matchers!)).toEqual([{ name: 'job', value: 'meridian', matchType: '=' }]);
    expect(meridian.routes!.flatMap((route) => matcherObjects(route.matchers!)).map((matcher) => [matcher.name, matcher.value])).toEqual(
      severities.map((severity) => ['severity', severity]),
    );
    expect(meridian.routes!.map((route) => route.receiver)).toEqual(['meridian-critical', 'meridian-warning']);
  });

  it('groups and inhibits on labels every alert keeps through its aggregations', () => {
    const labels = [...new Set([...meridian.group_by!, ...file.inhibit_rules.flatMap((rule) => rule.equal)])];

    expect(labels.sort()).toEqual(['job', 'namespace']);
    for (const rule of alertingRules()) {
      expect(rule.expr, rule.alert).not.toMatch(/\bwithout\s*\(/);
      for (const kept of aggregationLabels(rule.expr)) expect(kept, rule.alert).toEqual(expect.arrayContaining(labels));
    }
  });

  it('names only alerts of the rules file in its inhibit rules, MeridianDown inhibiting every other alert', () => {
    const alerts = alertingRules().map((rule) => rule.alert!);
    const named = file.inhibit_rules
      .flatMap((rule) => matcherObjects([...rule.source_matchers, ...rule.target_matchers]))
      .filter((matcher) => matcher.name === 'alertname');

    for (const matcher of named) expect(alerts).toContain(matcher.value);
    expect(file.inhibit_rules[0]).toEqual({
      source_matchers: ['alertname="MeridianDown"'],
      target_matchers: ['alertname!="MeridianDown"'],
      equal: ['namespace', 'job'],
    });
  });

  it('finds the labels an aggregation keeps, so the check above can fail', () => {
    expect(aggregationLabels('sum by (namespace, job, le) (rate(x[5m])) > 1 and count by(job) (y)')).toEqual([
      ['namespace', 'job', 'le'],
      ['job'],
    ]);
  });
});
