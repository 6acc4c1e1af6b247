import { describe, expect, it } from 'vitest';
import { EVERY_FEATURE_VALUES, render, renderError } from '../support/chart';
import { appEnvironmentOf, podSpecOf, webContainerOf } from '../support/workload';

describe("the app's settings", () => {
  it('passes every runtime setting of the server, with its documented default', () => {
    expect(appEnvironmentOf(render())).toEqual({
      PORT: '3000',
      METRICS_PORT: '9464',
      // Kubernetes sets HOSTNAME to the pod name; the server binds HOSTNAME.
      HOSTNAME: '0.0.0.0',
      LOG_LEVEL: 'info',
      BUILD_POLL_INTERVAL_MS: '60000',
      SHUTDOWN_DELAY_MS: '5000',
      SHUTDOWN_TIMEOUT_MS: '20000',
      KEEP_ALIVE_TIMEOUT_MS: '65000',
      TRUST_PROXY: 'false',
      HSTS: 'false',
      TELEMETRY_RATE_LIMIT_PER_MINUTE: '60',
      OTEL_SERVICE_NAME: 'meridian',
      OTEL_SDK_DISABLED: 'false',
    });
  });

  it('takes log level, poll interval and OTEL_* from the values', () => {
    expect(appEnvironmentOf(render({}, { files: [EVERY_FEATURE_VALUES] }))).toMatchObject({
      LOG_LEVEL: 'debug',
      BUILD_POLL_INTERVAL_MS: '30000',
      TRUST_PROXY: 'true',
      HSTS: 'true',
      OTEL_SERVICE_NAME: 'meridian-web',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
  });

  it('adds extra env and envFrom after the chart’s own settings', () => {
    const container = webContainerOf(render({}, { files: [EVERY_FEATURE_VALUES] }));

    expect(container.env).toEqual([
      { name: 'NODE_OPTIONS', value: '--max-old-space-size=384' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ]);
    expect(container.envFrom).toEqual([{ configMapRef: { name: 'web-meridian' } }, { secretRef: { name: 'meridian-extra' } }]);
  });

  it('refuses extraEnv that would override a chart setting behind the grace period’s back', () => {
    expect(renderError({ extraEnv: [{ name: 'SHUTDOWN_TIMEOUT_MS', value: '90000' }] })).toContain(
      'extraEnv sets SHUTDOWN_TIMEOUT_MS, which the chart sets from its values',
    );
  });

  it('moves both ports together: container ports and the PORT and METRICS_PORT the server reads', () => {
    const objects = render({ containerPorts: { http: 8080, metrics: 9100 } });

    expect(webContainerOf(objects).ports?.map((port) => [port.name, port.containerPort])).toEqual([
      ['http', 8080],
      ['metrics', 9100],
    ]);
    expect(appEnvironmentOf(objects)).toMatchObject({ PORT: '8080', METRICS_PORT: '9100' });
  });

  it('refuses the same port for the site and the metrics', () => {
    expect(renderError({ containerPorts: { http: 9464, metrics: 9464 } })).toContain('containerPorts.metrics=9464 must differ from containerPorts.http');
  });

  it('turns off service links, whose <NAME>_PORT variables would land in the app’s environment', () => {
    expect(podSpecOf(render()).enableServiceLinks).toBe(false);
  });
});
