import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { CHART_DIR, find, render } from './chart';

/** The one rules file: the chart's PrometheusRule embeds it, compose's Prometheus loads it. */
export const RULES_FILE = path.join(CHART_DIR, 'files', 'prometheus-rules.yaml');

export interface Rule {
  record?: string;
  alert?: string;
  expr: string;
  for?: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
}

export interface RuleGroup {
  name: string;
  rules: Rule[];
}

export function ruleGroups(): RuleGroup[] {
  return (parse(readFileSync(RULES_FILE, 'utf8')) as { groups: RuleGroup[] }).groups;
}

export const alertingRules = (): Rule[] => ruleGroups().flatMap((group) => group.rules.filter((rule) => rule.alert));

export const recordingRules = (): Rule[] => ruleGroups().flatMap((group) => group.rules.filter((rule) => rule.record));

/**
 * The alerts the chart renders beside the file's, which watch another job than the release's
 * own: MeridianCanaryAborted, on Argo Rollouts' rollout_info, with rollout.strategy canary.
 */
const RUNBOOK_BASE = 'https://runbooks.invalid/';

export function chartOnlyAlertingRules(): Rule[] {
  const values = {
    rollout: { strategy: 'canary', canary: { analysis: { prometheusAddress: 'http://prometheus:9090' } } },
    serviceMonitor: { enabled: true },
    // Each runbook_url is docs/runbooks.md#<alert> under this base, taken off below as the file's are relative.
    prometheusRule: { enabled: true, runbookBaseUrl: RUNBOOK_BASE },
  };
  const groups = (find(render(values), 'PrometheusRule').spec as { groups: RuleGroup[] }).groups;
  const fileAlerts = new Set(alertingRules().map((rule) => rule.alert));
  return groups
    .flatMap((group) => group.rules.filter((rule) => rule.alert && !fileAlerts.has(rule.alert)))
    .map((rule) => ({
      ...rule,
      annotations: { ...rule.annotations, runbook_url: rule.annotations?.runbook_url?.slice(RUNBOOK_BASE.length) ?? '' },
    }));
}
