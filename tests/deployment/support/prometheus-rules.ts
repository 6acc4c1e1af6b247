import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { CHART_DIR } from './chart';

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
