import path from 'node:path';
import { CHART_DIR } from './chart';

/** The plain Alertmanager configuration; the chart's AlertmanagerConfig is built from it. */
export const ALERTMANAGER_FILE = path.join(CHART_DIR, 'files', 'alertmanager.yaml');

export interface AlertmanagerRoute {
  receiver?: string;
  matchers?: string[];
  group_by?: string[];
  group_wait?: string;
  group_interval?: string;
  repeat_interval?: string;
  routes?: AlertmanagerRoute[];
}

export interface InhibitRule {
  source_matchers: string[];
  target_matchers: string[];
  equal: string[];
}

export interface AlertmanagerFile {
  route: AlertmanagerRoute & { receiver: string; routes: AlertmanagerRoute[] };
  inhibit_rules: InhibitRule[];
  receivers: { name: string }[];
}

export interface Matcher {
  name: string;
  value: string;
  matchType: '=' | '!=' | '=~' | '!~';
}

/** Alertmanager's matcher strings (`alertname="MeridianDown"`) as the Operator's CRD writes matchers. */
export function matcherObjects(matchers: string[]): Matcher[] {
  return matchers.map((text) => {
    const match = /^\s*([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)\s*"(.*)"\s*$/.exec(text);
    if (!match) throw new Error(`not a matcher of the form label="value": ${text}`);
    return { name: match[1]!, value: match[3]!, matchType: match[2] as Matcher['matchType'] };
  });
}
