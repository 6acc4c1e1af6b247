import { readFileSync } from 'node:fs';
import path from 'node:path';
import { CHART_DIR } from './chart';

/** The one dashboard: the chart's ConfigMap embeds it, compose's Grafana provisions it. */
export const DASHBOARD_FILE = path.join(CHART_DIR, 'files', 'grafana-dashboard.json');

export interface Target {
  refId: string;
  expr: string;
  legendFormat?: string;
  datasource?: { type: string; uid: string };
}

export interface GridPos {
  h: number;
  w: number;
  x: number;
  y: number;
}

export interface Panel {
  id: number;
  type: string;
  title: string;
  description?: string;
  datasource?: { type: string; uid: string };
  gridPos: GridPos;
  targets?: Target[];
  /** A collapsed row keeps its panels here rather than after it. */
  panels?: Panel[];
}

export interface Variable {
  name: string;
  type: string;
  query?: string | { query: string };
  includeAll?: boolean;
  allValue?: string;
}

export interface Dashboard {
  uid: string;
  title: string;
  schemaVersion: number;
  templating: { list: Variable[] };
  panels: Panel[];
}

export function readDashboard(): Dashboard {
  return JSON.parse(readFileSync(DASHBOARD_FILE, 'utf8')) as Dashboard;
}

/** Each row with its panels: those after it until the next row, or those it holds collapsed. */
export function rows(dashboard: Dashboard): { title: string; panels: Panel[] }[] {
  const result: { title: string; panels: Panel[] }[] = [];
  for (const panel of dashboard.panels) {
    if (panel.type === 'row') result.push({ title: panel.title, panels: [...(panel.panels ?? [])] });
    else if (result.length === 0) throw new Error(`dashboard: panel "${panel.title}" comes before any row`);
    else result.at(-1)!.panels.push(panel);
  }
  return result;
}

/** What Grafana puts in place of the variables: namespace and instance are regexes (All is `.*`). */
export interface VariableValues {
  job: string;
  namespace?: string;
  instance?: string;
  /** The build the Rollout row's panels judge as the canary. */
  canary?: string;
  /** Grafana's `$__rate_interval`: at least four scrape intervals. */
  rateInterval?: string;
}

/** Replaces `$name`, `${name}` and `[[name]]`; a variable it does not know is an error, never left in. */
export function substituteVariables(expr: string, values: VariableValues): string {
  const known: Record<string, string> = {
    job: values.job,
    namespace: values.namespace ?? '.*',
    instance: values.instance ?? '.*',
    canary: values.canary ?? 'canary-build-under-test',
    __rate_interval: values.rateInterval ?? '1m',
  };
  return expr.replace(/\$\{(\w+)\}|\$(\w+)|\[\[(\w+)\]\]/g, (match, ...names: (string | undefined)[]) => {
    const name = names.slice(0, 3).find((candidate) => candidate !== undefined)!;
    const value = known[name];
    if (value === undefined) throw new Error(`dashboard: unknown variable ${match} in: ${expr}`);
    return value;
  });
}
