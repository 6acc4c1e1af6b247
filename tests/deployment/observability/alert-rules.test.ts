import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { ROOT } from '../../../tools/lib/app-server.mjs';
import { alertingRules, ruleGroups, RULES_FILE } from '../support/prometheus-rules';
import { vectorSelectors } from '../support/promql';
import { promtool, yamlFile } from '../support/promtool';

const FIXTURES = path.join(ROOT, 'tests', 'fixtures', 'prometheus');
const unitTestFiles = readdirSync(FIXTURES).filter((file) => file.endsWith('.test.yaml'));
const OBJECTIVE = 'meridian:slo_availability_objective';

interface UnitTests {
  tests: { alert_rule_test?: { alertname: string; exp_alerts: unknown[] }[] }[];
}

/** Alert names the unit tests expect firing (`fires`) and expect silent (`silent`) at some point. */
function coverage(): { fires: Set<string>; silent: Set<string> } {
  const fires = new Set<string>();
  const silent = new Set<string>();
  for (const file of unitTestFiles) {
    const { tests } = parse(readFileSync(path.join(FIXTURES, file), 'utf8')) as UnitTests;
    for (const check of tests.flatMap((test) => test.alert_rule_test ?? [])) {
      (check.exp_alerts.length > 0 ? fires : silent).add(check.alertname);
    }
  }
  return { fires, silent };
}

describe('alert rules', () => {
  it('pass promtool check rules', () => {
    const result = promtool(['check', 'rules', RULES_FILE]);

    expect(result.status, result.output).toBe(0);
  });

  it.each(unitTestFiles)('pass the promtool unit tests of %s', (file) => {
    const result = promtool(['test', 'rules', path.join(FIXTURES, file)]);

    expect(result.status, result.output).toBe(0);
  });

  it('have each alert tested both firing and silent', () => {
    const alerts = alertingRules().map((rule) => rule.alert!);
    const { fires, silent } = coverage();

    expect(
      alerts.filter((alert) => !fires.has(alert)),
      'never expected to fire',
    ).toEqual([]);
    expect(
      alerts.filter((alert) => !silent.has(alert)),
      'never expected silent',
    ).toEqual([]);
  });

  it('fail a unit test that expects the wrong outcome, so the tests above can fail', () => {
    const wrong = yamlFile({
      rule_files: [RULES_FILE],
      evaluation_interval: '1m',
      tests: [
        {
          interval: '1m',
          input_series: [{ series: 'up{job="meridian", instance="10.0.0.1:9464"}', values: '0x20' }],
          alert_rule_test: [{ eval_time: '15m', alertname: 'MeridianTargetDown', exp_alerts: [] }],
        },
      ],
    });

    expect(promtool(['test', 'rules', wrong]).status).not.toBe(0);
  });

  it('give every alert a severity that says page or ticket, a summary, a description and a runbook link', () => {
    for (const rule of alertingRules()) {
      expect(rule.labels?.severity, rule.alert).toMatch(/^(critical|warning)$/);
      expect(rule.annotations, rule.alert).toEqual({
        summary: expect.any(String),
        description: expect.any(String),
        runbook_url: `docs/runbooks.md#${rule.alert!.toLowerCase()}`,
      });
    }
  });

  it('match job="meridian" in every selector, the matcher the chart scopes to each release', () => {
    for (const rule of ruleGroups().flatMap((group) => group.rules)) {
      const selectors = vectorSelectors(rule.expr);
      if (rule.record === OBJECTIVE) expect(rule.labels).toEqual({ job: 'meridian' });
      for (const selector of selectors)
        expect(selector.matchers, rule.alert ?? rule.record).toContainEqual({ label: 'job', op: '=', value: 'meridian' });
    }
  });

  it('read the availability objective from one recording rule, evaluated before the alerts of its group', () => {
    const groups = ruleGroups();
    const group = groups.find((candidate) => candidate.rules.some((rule) => rule.record === OBJECTIVE))!;
    const objective = group.rules.findIndex((rule) => rule.record === OBJECTIVE);
    const readers = groups.flatMap((candidate) => candidate.rules.filter((rule) => rule.expr.includes(OBJECTIVE)));

    expect(group.rules[objective]!.expr).toBe('vector(0.999)');
    expect(readers.map((rule) => rule.alert)).toEqual(['MeridianErrorBudgetFastBurn', 'MeridianErrorBudgetSlowBurn']);
    for (const reader of readers) expect(group.rules.indexOf(reader)).toBeGreaterThan(objective);
  });
});
