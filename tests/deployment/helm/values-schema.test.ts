import { describe, expect, it } from 'vitest';
import { render, renderError } from '../support/chart';

describe('values.schema.json', () => {
  it.each([
    ['replicaCount: -1', { replicaCount: -1 }, "at '/replicaCount'"],
    ['replicaCount: "two"', { replicaCount: 'two' }, "at '/replicaCount': got string, want integer"],
    ['image.tag with spaces', { image: { tag: 'build 42' } }, "at '/image/tag'"],
    ['an unknown log level', { app: { logLevel: 'verbose' } }, "at '/app/logLevel'"],
    ['a poll interval of 0', { app: { buildPollIntervalMs: 0 } }, "at '/app/buildPollIntervalMs'"],
    ['a poll interval as a string', { app: { buildPollIntervalMs: '60000' } }, "at '/app/buildPollIntervalMs'"],
    ['a negative shutdown delay', { app: { shutdownDelayMs: -1 } }, "at '/app/shutdownDelayMs'"],
    ['a port out of range', { containerPorts: { http: 70000 } }, "at '/containerPorts/http'"],
    ['an unknown key (a typo)', { replicas: 3 }, "additional properties 'replicas' not allowed"],
    ['an unknown service type', { service: { type: 'Ingress' } }, "at '/service/type'"],
    ['an OTLP endpoint that is not http(s)', { app: { otel: { exporterOtlpEndpoint: 'collector:4318' } } }, "at '/app/otel/exporterOtlpEndpoint'"],
    ['an OTEL variable the chart sets itself', { app: { otel: { env: { OTEL_SERVICE_NAME: 'x' } } } }, "invalid propertyName 'OTEL_SERVICE_NAME'"],
    ['a variable in app.otel.env that is not OTEL_*', { app: { otel: { env: { NODE_OPTIONS: 'x' } } } }, "invalid propertyName 'NODE_OPTIONS'"],
    ['maxSurge 0 (with maxUnavailable 0 a rollout could not start)', { rollingUpdate: { maxSurge: 0 } }, "at '/rollingUpdate/maxSurge'"],
    ['minAvailable 100%', { podDisruptionBudget: { minAvailable: '100%' } }, "at '/podDisruptionBudget/minAvailable'"],
    ['a cache dir at /tmp', { app: { cacheDir: '/tmp' } }, "at '/app/cacheDir'"],
    ['an env var without a name', { extraEnv: [{ value: 'x' }] }, "at '/extraEnv/0'"],
  ])('rejects %s', (_label, values, expected) => {
    const message = renderError(values);

    expect(message).toContain("values don't meet the specifications of the schema");
    expect(message).toContain(expected);
  });

  it('refuses a digits-only tag that --set turned into a number; --set-string keeps it a tag', () => {
    expect(renderError({}, { args: ['--set', 'image.tag=1234567'] })).toContain("at '/image/tag': got number, want string");
    expect(() => render({}, { args: ['--set-string', 'image.tag=1234567'] })).not.toThrow();
  });

  it('accepts every value in its documented range', () => {
    expect(() =>
      render({
        replicaCount: 1,
        podDisruptionBudget: { minAvailable: null, maxUnavailable: '50%' },
        image: { tag: 'v1.2.3_rc-4' },
        app: { logLevel: 'silent', buildPollIntervalMs: 1000, shutdownDelayMs: 0, shutdownTimeoutMs: 0 },
        rollingUpdate: { maxSurge: 1 },
      }),
    ).not.toThrow();
  });
});
