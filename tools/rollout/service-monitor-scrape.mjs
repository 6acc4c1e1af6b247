// A Prometheus scrape job that follows a ServiceMonitor the way the Prometheus
// Operator would: Kubernetes discovery of endpoint slices in the monitor's
// namespaces, kept when the Service carries the selector's labels and the port
// has the endpoint's name; job, namespace, service and pod labels as it sets them.

/** Prometheus's meta-label spelling of a Kubernetes label name. */
const metaName = (/** @type {string} */ label) => label.replace(/[^a-zA-Z0-9_]/g, '_');

/**
 * @param {{ metadata: { name: string, namespace: string }, spec: { jobLabel?: string, selector: { matchLabels: Record<string, string>, matchExpressions?: object[] }, namespaceSelector?: { matchNames?: string[], any?: boolean }, endpoints: ({ port: string, path?: string, interval?: string, scrapeTimeout?: string } & Record<string, unknown>)[] } }} monitor
 * @param {{ kubeconfigFile: string, scrapeInterval?: string }} options
 */
export function scrapeConfigsFor(monitor, { kubeconfigFile, scrapeInterval }) {
  const { spec, metadata } = monitor;
  // What the Operator would do with these is not translated here: refuse rather than scrape something else.
  const untranslated = [
    ...(spec.selector.matchExpressions?.length ? ['selector.matchExpressions'] : []),
    ...(spec.namespaceSelector?.any ? ['namespaceSelector.any'] : []),
    ...spec.endpoints.flatMap((endpoint) =>
      ['relabelings', 'metricRelabelings', 'tlsConfig', 'scheme', 'bearerTokenSecret', 'authorization'].filter((field) => {
        const value = endpoint[field];
        return value !== undefined && !(Array.isArray(value) && value.length === 0);
      }),
    ),
  ];
  if (untranslated.length)
    throw new Error(
      `rollout: ServiceMonitor ${metadata.namespace}/${metadata.name} uses ${untranslated.join(', ')}, which this translation does not follow`,
    );
  const namespaces = spec.namespaceSelector?.matchNames ?? [metadata.namespace];
  return spec.endpoints.map((endpoint, index) => ({
    job_name: `serviceMonitor/${metadata.namespace}/${metadata.name}/${index}`,
    scrape_interval: scrapeInterval ?? endpoint.interval,
    scrape_timeout: scrapeInterval ?? endpoint.scrapeTimeout,
    metrics_path: endpoint.path ?? '/metrics',
    kubernetes_sd_configs: [{ role: 'endpointslice', kubeconfig_file: kubeconfigFile, namespaces: { names: namespaces } }],
    relabel_configs: [
      ...Object.entries(spec.selector.matchLabels).map(([label, value]) => ({
        action: 'keep',
        source_labels: [`__meta_kubernetes_service_label_${metaName(label)}`],
        regex: value,
      })),
      { action: 'keep', source_labels: ['__meta_kubernetes_endpointslice_port_name'], regex: endpoint.port },
      { source_labels: ['__meta_kubernetes_namespace'], target_label: 'namespace' },
      { source_labels: ['__meta_kubernetes_service_name'], target_label: 'service' },
      { source_labels: ['__meta_kubernetes_pod_name'], target_label: 'pod' },
      { target_label: 'endpoint', replacement: endpoint.port },
      // job: the Service's jobLabel label when set, else the Service's name (the Operator's rule).
      { source_labels: ['__meta_kubernetes_service_name'], target_label: 'job' },
      ...(spec.jobLabel
        ? [{ source_labels: [`__meta_kubernetes_service_label_${metaName(spec.jobLabel)}`], regex: '(.+)', target_label: 'job' }]
        : []),
    ],
  }));
}
