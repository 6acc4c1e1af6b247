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
      HEADERS_TIMEOUT_MS: '10000',
      MAX_CONNECTIONS: '10000',
      TRUST_PROXY: 'false',
      HSTS: 'false',
      TELEMETRY_RATE_LIMIT_PER_MINUTE: '60',
      RENDER_CONCURRENCY: '4',
      RENDER_QUEUE: '16',
      NEXT_ANSWERS_ALL: 'false',
      OTEL_SERVICE_NAME: 'meridian',
      OTEL_SDK_DISABLED: 'false',
    });
  });

  it('takes log level, poll interval, NEXT_ANSWERS_ALL and OTEL_* from the values', () => {
    expect(appEnvironmentOf(render({}, { files: [EVERY_FEATURE_VALUES] }))).toMatchObject({
      LOG_LEVEL: 'debug',
      BUILD_POLL_INTERVAL_MS: '30000',
      TRUST_PROXY: '2',
      HSTS: 'true',
      NEXT_ANSWERS_ALL: 'true',
      OTEL_SERVICE_NAME: 'meridian-web',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://otel-collector.observability:4318',
      OTEL_TRACES_SAMPLER: 'parentbased_traceidratio',
      OTEL_TRACES_SAMPLER_ARG: '0.1',
    });
  });

  it("passes SITE_URL per release, so one image runs under each release's own origin", () => {
    const staging = appEnvironmentOf(render({ app: { siteUrl: 'https://staging.example.com' } }));
    const production = appEnvironmentOf(render({ app: { siteUrl: 'https://www.example.com:8443/' } }));
    expect([staging.SITE_URL, production.SITE_URL]).toEqual(['https://staging.example.com', 'https://www.example.com:8443/']);
  });

  it.each(['www.example.com', 'ftp://example.com', 'https://exa"mple.com', 'https://a b.example', 'https://example.com/ x'])(
    'refuses app.siteUrl %j, which the server would refuse at start',
    (siteUrl) => {
      expect(renderError({ app: { siteUrl } })).toMatch(/siteUrl/);
    },
  );

  it('adds extra env and envFrom after the chart’s own settings', () => {
    const container = webContainerOf(render({}, { files: [EVERY_FEATURE_VALUES] }));

    expect(container.env).toEqual([
      { name: 'TELEMETRY_TOKEN_KEYS', valueFrom: { secretKeyRef: { name: 'web-meridian-telemetry', key: 'keys' } } },
      { name: 'POD_IP', valueFrom: { fieldRef: { fieldPath: 'status.podIP' } } },
      { name: 'NODE_OPTIONS', value: '--max-old-space-size=384' },
      { name: 'POD_NAME', valueFrom: { fieldRef: { fieldPath: 'metadata.name' } } },
    ]);
    expect(container.envFrom).toEqual([
      { configMapRef: { name: expect.stringMatching(/^web-meridian-env-[a-f0-9]{10}$/) } },
      { secretRef: { name: 'meridian-extra' } },
    ]);
  });

  it('refuses extraEnv that would override a chart setting behind the grace period’s back', () => {
    expect(renderError({ extraEnv: [{ name: 'SHUTDOWN_TIMEOUT_MS', value: '90000' }] })).toContain(
      'extraEnv sets SHUTDOWN_TIMEOUT_MS, which the chart sets from its values',
    );
  });

  it('signs page-view tokens with one key for the whole release: a Secret it makes once, or the one named', () => {
    const made = render({}).find((object) => object.kind === 'Secret');
    expect(made?.metadata.name).toBe('web-meridian-telemetry');
    const key = Buffer.from(String((made as unknown as { data: { keys: string } }).data.keys), 'base64').toString();
    expect(key).toMatch(/^[A-Za-z0-9]{48}$/);

    const named = render({ app: { telemetryTokenKeys: { existingSecret: 'site-keys', secretKey: 'tokens' } } });
    expect(named.filter((object) => object.kind === 'Secret')).toEqual([]);
    expect(webContainerOf(named).env?.[0]).toEqual({
      name: 'TELEMETRY_TOKEN_KEYS',
      valueFrom: { secretKeyRef: { name: 'site-keys', key: 'tokens' } },
    });
    expect(renderError({ extraEnv: [{ name: 'TELEMETRY_TOKEN_KEYS', value: 'k'.repeat(32) }] })).toContain(
      'extraEnv sets TELEMETRY_TOKEN_KEYS',
    );
  });

  it('keeps page-view tokens alive over two poll intervals, or leaves their lifetime to the server', () => {
    expect(appEnvironmentOf(render({})).TELEMETRY_TOKEN_TTL_MS).toBeUndefined();
    expect(appEnvironmentOf(render({ app: { telemetryTokenTtlMs: 600_000, buildPollIntervalMs: 300_000 } })).TELEMETRY_TOKEN_TTL_MS).toBe(
      '600000',
    );
    expect(renderError({ app: { telemetryTokenTtlMs: 600_000, buildPollIntervalMs: 300_001 } })).toContain(
      'app.telemetryTokenTtlMs=600000 must be at least twice app.buildPollIntervalMs=300001',
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
    expect(renderError({ containerPorts: { http: 9464, metrics: 9464 } })).toContain(
      'containerPorts.metrics=9464 must differ from containerPorts.http',
    );
  });

  it('renders every number in the environment as a plain integer, never 1e+07', () => {
    const environment = appEnvironmentOf(
      render({
        app: {
          buildPollIntervalMs: 86400000,
          shutdownTimeoutMs: 600000,
          keepAliveTimeoutMs: 3600000,
          telemetryRateLimitPerMinute: 100000,
          otel: { env: { OTEL_BSP_MAX_QUEUE_SIZE: 10000000, OTEL_TRACES_SAMPLER_ARG: 0.25 } },
        },
      }),
    );

    expect(environment).toMatchObject({
      BUILD_POLL_INTERVAL_MS: '86400000',
      SHUTDOWN_TIMEOUT_MS: '600000',
      KEEP_ALIVE_TIMEOUT_MS: '3600000',
      TELEMETRY_RATE_LIMIT_PER_MINUTE: '100000',
      OTEL_BSP_MAX_QUEUE_SIZE: '10000000',
      OTEL_TRACES_SAMPLER_ARG: '0.25',
    });
    expect(Object.values(environment).filter((value) => /e[+-]\d/.test(value))).toEqual([]);
  });

  it('turns off service links, whose <NAME>_PORT variables would land in the app’s environment', () => {
    expect(podSpecOf(render()).enableServiceLinks).toBe(false);
  });
});

describe('TRUST_PROXY', () => {
  const INGRESS = { enabled: true, hosts: [{ host: 'www.example.com', paths: [{ path: '/', pathType: 'Prefix' }] }] };
  const trustProxy = (values: Record<string, unknown>) => appEnvironmentOf(render(values)).TRUST_PROXY;

  it.each([
    ['no Ingress nor HTTPRoute: nothing in front to trust', {}, 'false'],
    ['an Ingress: one hop, the ingress controller', { ingress: INGRESS }, '1'],
    ['an HTTPRoute: one hop, the gateway proxy', { httpRoute: { enabled: true } }, '1'],
    ['a load balancer in front of the ingress controller, set by hand', { ingress: INGRESS, app: { trustProxy: 2 } }, '2'],
    ['false set by hand, even with an Ingress', { ingress: INGRESS, app: { trustProxy: false } }, 'false'],
    ['addresses and names', { app: { trustProxy: 'loopback, 10.0.0.0/8,uniquelocal' } }, 'loopback, 10.0.0.0/8,uniquelocal'],
  ])('is right with %s', (_label, values, expected) => {
    expect(trustProxy(values)).toBe(expected);
  });

  it('is never "true", which would believe any client: the schema refuses it as a boolean and as a string', () => {
    expect(renderError({ app: { trustProxy: true } })).toContain("at '/app/trustProxy'");
    expect(renderError({ app: { trustProxy: 'true' } })).toContain("at '/app/trustProxy'");
  });
});
