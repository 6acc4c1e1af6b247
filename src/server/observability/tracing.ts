import { NodeSDK, tracing } from '@opentelemetry/sdk-node';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import type { ServerConfig } from '../config';
import { NextSpanFilter } from './span-filter';

export interface Tracing {
  shutdown(): Promise<void>;
}

/**
 * Starts OpenTelemetry before Next is loaded, configured only by the standard
 * OTEL_* variables (endpoint, headers, sampler, resource attributes). With no
 * exporter endpoint it is not started at all, and the API stays a no-op.
 * No auto-instrumentation: the request pipeline opens one server span per
 * request, named by route, and Next's request and render spans nest under it
 * (see span-filter.ts for the ones left out).
 */
export function startTracing(config: ServerConfig): Tracing | null {
  if (!config.tracing.enabled) return null;
  const sdk = new NodeSDK({
    serviceName: config.tracing.serviceName,
    spanProcessors: [new NextSpanFilter(new tracing.BatchSpanProcessor(new OTLPTraceExporter()))],
    instrumentations: [],
  });
  sdk.start();
  return { shutdown: () => sdk.shutdown() };
}
