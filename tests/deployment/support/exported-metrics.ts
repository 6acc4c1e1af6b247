import { createMetrics } from '@/server/observability/metrics';

/** Labels Prometheus adds to every series: `job` and `instance`, and the Prometheus Operator's target labels. */
export const TARGET_LABELS = ['job', 'instance', 'namespace', 'service', 'pod', 'container', 'endpoint'] as const;

/**
 * A scraped label that clashes with a target label is renamed `exported_<name>` (the
 * metric's own `namespace`, the message file of a locale failure, under the Operator).
 */
const renamedOnClash = (labels: string[]) =>
  labels.filter((label) => (TARGET_LABELS as readonly string[]).includes(label)).map((label) => `exported_${label}`);

interface RegisteredMetric {
  name: string;
  type: string;
  labelNames: string[];
}

/**
 * Every series name the app exports, with its labels, read from the registry the server
 * builds (its own metrics and prom-client's defaults), plus Prometheus's own `up`.
 */
export function exportedSeries(): Map<string, string[]> {
  const { registry } = createMetrics({ buildId: 'test', version: 'test', revision: 'test', builtAt: 0 });
  const series = new Map<string, string[]>([['up', []]]);
  for (const metric of registry.getMetricsAsArray() as unknown as RegisteredMetric[]) {
    const labels = [...metric.labelNames, ...renamedOnClash(metric.labelNames)];
    if (metric.type === 'histogram') {
      series.set(`${metric.name}_bucket`, [...labels, 'le']);
      series.set(`${metric.name}_sum`, labels);
      series.set(`${metric.name}_count`, labels);
    } else if (metric.type === 'summary') {
      series.set(metric.name, [...labels, 'quantile']);
      series.set(`${metric.name}_sum`, labels);
      series.set(`${metric.name}_count`, labels);
    } else {
      series.set(metric.name, labels);
    }
  }
  return series;
}
