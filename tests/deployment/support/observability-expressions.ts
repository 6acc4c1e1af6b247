import { readDashboard, rows, substituteVariables, type Variable, type VariableValues } from './grafana-dashboard';
import { ruleGroups } from './prometheus-rules';

export interface NamedExpression {
  /** Where it comes from, unique: `dashboard › Errors › 404 per second by route › A`, `alert › MeridianDown`. */
  name: string;
  expr: string;
}

/** The series selector of a `label_values(selector, label)` variable query, if it has one. */
function variableSelector(variable: Variable): string | undefined {
  const query = typeof variable.query === 'string' ? variable.query : variable.query?.query;
  return query?.match(/^label_values\((.+),\s*\w+\)$/)?.[1];
}

/** Every PromQL expression of the dashboard (panel targets, variable selectors), its variables substituted. */
export function dashboardExpressions(values: VariableValues): NamedExpression[] {
  const dashboard = readDashboard();
  const variables = dashboard.templating.list
    .filter((variable) => variable.type === 'query')
    .flatMap((variable) => {
      const selector = variableSelector(variable);
      return selector ? [{ name: `dashboard variable › ${variable.name}`, expr: substituteVariables(selector, values) }] : [];
    });
  const targets = rows(dashboard).flatMap((row) =>
    row.panels.flatMap((panel) =>
      (panel.targets ?? []).map((target) => ({
        name: `dashboard › ${row.title} › ${panel.title} › ${target.refId}`,
        expr: substituteVariables(target.expr, values),
      })),
    ),
  );
  return [...variables, ...targets];
}

/** Every expression of the rules file: recording rules, then alerts, as they appear. */
export function ruleExpressions(): NamedExpression[] {
  return ruleGroups().flatMap((group) =>
    group.rules.map((rule) => ({ name: rule.record ? `record › ${rule.record}` : `alert › ${rule.alert}`, expr: rule.expr })),
  );
}

/**
 * Every PromQL expression Meridian's dashboard and rules evaluate, named, for checking them
 * against a real Prometheus that scrapes the app (job and instance as it labels the targets).
 */
export function observabilityExpressions(values: VariableValues): NamedExpression[] {
  return [...dashboardExpressions(values), ...ruleExpressions()];
}
