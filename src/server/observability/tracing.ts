import { NodeSDK } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ServerConfig } from '../config';

export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry before Next is loaded, configured only by the standard
 * OTEL_* variables (endpoint, headers, sampler, resource attributes). With no
 * exporter endpoint it is not started at all, and the API stays a no-op.
 * No auto-instrumentation: the request pipeline opens one server span per
 * request, named by route, and Next's own spans nest under it.
 */
export function startTracing(config: ServerConfig): Tracing | null {
  if (!config.tracing.enabled) return null;
  const sdk = new NodeSDK({
    serviceName: config.tracing.serviceName,
    traceExporter: new OTLPTraceExporter(),
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
