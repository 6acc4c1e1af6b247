import { describe, expect, it } from 'vitest';
import { ConfigError, readConfig } from '@/server/config';

describe('readConfig', () => {
  it('has the documented defaults', () => {
    expect(readConfig({})).toEqual({
      port: 3000,
      hostname: '0.0.0.0',
      metricsPort: 9464,
      logLevel: 'info',
      shutdownDelayMs: 5000,
      shutdownTimeoutMs: 20_000,
      keepAliveTimeoutMs: 65_000,
      headersTimeoutMs: 10_000,
      maxConnections: 10_000,
      trustProxy: false,
      hsts: false,
      telemetryRateLimitPerMinute: 60,
      telemetryTokenKeys: null,
      telemetryTokenTtlMs: 1_800_000,
      podIp: null,
      buildPollIntervalMs: 60_000,
      render: { concurrency: 4, queue: 16 },
      nextAnswersAll: false,
      releaseServices: null,
      siteUrl: null,
      tracing: { enabled: false, serviceName: 'meridian' },
    });
  });

  it('reads every variable', () => {
    const config = readConfig({
      PORT: '8080',
      HOSTNAME: '127.0.0.1',
      METRICS_PORT: '9100',
      LOG_LEVEL: 'debug',
      SHUTDOWN_DELAY_MS: '0',
      SHUTDOWN_TIMEOUT_MS: '1000',
      KEEP_ALIVE_TIMEOUT_MS: '75000',
      HEADERS_TIMEOUT_MS: '5000',
      MAX_CONNECTIONS: '500',
      TRUST_PROXY: '1',
      HSTS: '1',
      TELEMETRY_RATE_LIMIT_PER_MINUTE: '10',
      TELEMETRY_TOKEN_KEYS: `${'n'.repeat(32)}, ${'o'.repeat(40)}`,
      TELEMETRY_TOKEN_TTL_MS: '600000',
      POD_IP: 'fd00::7',
      BUILD_POLL_INTERVAL_MS: '1000',
      RENDER_CONCURRENCY: '2',
      RENDER_QUEUE: '0',
      NEXT_ANSWERS_ALL: 'true',
      SITE_URL: ' https://example.com:8443/any/path?q=1 ',
      OTEL_SERVICE_NAME: 'web',
      OTEL_EXPORTER_OTLP_ENDPOINT: 'http://collector:4318',
    });
    expect(config).toMatchObject({
      port: 8080,
      hostname: '127.0.0.1',
      metricsPort: 9100,
      logLevel: 'debug',
      shutdownDelayMs: 0,
      shutdownTimeoutMs: 1000,
      keepAliveTimeoutMs: 75_000,
      headersTimeoutMs: 5000,
      maxConnections: 500,
      trustProxy: 1,
      hsts: true,
      telemetryRateLimitPerMinute: 10,
      telemetryTokenKeys: ['n'.repeat(32), 'o'.repeat(40)],
      telemetryTokenTtlMs: 600_000,
      podIp: 'fd00::7',
      buildPollIntervalMs: 1000,
      render: { concurrency: 2, queue: 0 },
      nextAnswersAll: true,
      siteUrl: 'https://example.com:8443',
      tracing: { enabled: true, serviceName: 'web' },
    });
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('treats an empty variable as unset', () => {
    expect(readConfig({ PORT: '', LOG_LEVEL: '' }).port).toBe(3000);
  });

  it('enables tracing for a traces-only endpoint, and never when the SDK is disabled', () => {
    expect(readConfig({ OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: 'http://c:4318/v1/traces' }).tracing.enabled).toBe(true);
    expect(readConfig({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://c:4318', OTEL_SDK_DISABLED: 'true' }).tracing.enabled).toBe(false);
  });

  it.each([
    ['PORT', 'abc', /PORT="abc" is invalid: expected an integer from 1 to 65535/],
    ['PORT', '0', /PORT="0"/],
    ['PORT', '3000.5', /PORT/],
    ['METRICS_PORT', '70000', /METRICS_PORT="70000"/],
    ['LOG_LEVEL', 'loud', /LOG_LEVEL="loud" is invalid: expected one of fatal, error, warn, info, debug, trace, silent/],
    ['TRUST_PROXY', 'yes', /TRUST_PROXY="yes" is invalid: use false, a number of trusted hops/],
    [
      'TRUST_PROXY',
      'true',
      /TRUST_PROXY="true" is invalid: trusting every hop lets any visitor choose their address; use false, a number of trusted hops from 0 to 100 \(1 behind one load balancer\), or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal/,
    ],
    ['TRUST_PROXY', '10.0.0.0/33', /TRUST_PROXY="10.0.0.0\/33" is invalid/],
    ['TRUST_PROXY', 'loopback,', /TRUST_PROXY="loopback," is invalid/],
    ['TRUST_PROXY', '-1', /TRUST_PROXY="-1" is invalid/],
    ['TRUST_PROXY', '101', /TRUST_PROXY="101" is invalid: use false, a number of trusted hops from 0 to 100/],
    ['TRUST_PROXY', '1, 10.0.0.0/8', /TRUST_PROXY="1, 10.0.0.0\/8" is invalid/],
    ['TRUST_PROXY', 'proxy.internal', /TRUST_PROXY="proxy.internal" is invalid/],
    ['SHUTDOWN_TIMEOUT_MS', '-1', /SHUTDOWN_TIMEOUT_MS="-1"/],
    ['KEEP_ALIVE_TIMEOUT_MS', '10', /KEEP_ALIVE_TIMEOUT_MS="10"/],
    ['HEADERS_TIMEOUT_MS', '999', /HEADERS_TIMEOUT_MS="999" is invalid: expected an integer from 1000 to 120000/],
    ['HEADERS_TIMEOUT_MS', '300000', /HEADERS_TIMEOUT_MS="300000"/],
    ['MAX_CONNECTIONS', '0', /MAX_CONNECTIONS="0" is invalid: expected an integer from 1 to 1000000/],
    ['MAX_CONNECTIONS', 'many', /MAX_CONNECTIONS="many"/],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'not-a-url', /OTEL_EXPORTER_OTLP_ENDPOINT="not-a-url" is invalid/],
    ['BUILD_POLL_INTERVAL_MS', '0', /BUILD_POLL_INTERVAL_MS="0" is invalid: expected an integer from 1000 to 86400000/],
    ['BUILD_POLL_INTERVAL_MS', '999', /BUILD_POLL_INTERVAL_MS="999"/],
    ['BUILD_POLL_INTERVAL_MS', 'soon', /BUILD_POLL_INTERVAL_MS="soon"/],
    ['POD_IP', 'pod-a', /POD_IP="pod-a" is invalid: expected an IPv4 or IPv6 address/],
    ['STABLE_SERVICE_URL', 'meridian-stable', /STABLE_SERVICE_URL="meridian-stable" is invalid: expected an http\(s\) URL/],
    ['STABLE_SERVICE_URL', 'ftp://meridian-stable', /STABLE_SERVICE_URL="ftp:\/\/meridian-stable"/],
    ['CANARY_SERVICE_URL', 'http://meridian-canary/builds', /CANARY_SERVICE_URL=.* is invalid: expected an origin, with no path or query/],
    ['SITE_URL', 'example.com', /SITE_URL="example.com" is invalid: expected an absolute http\(s\) URL such as https:\/\/example.com/],
    ['SITE_URL', '/relative', /SITE_URL="\/relative"/],
    ['SITE_URL', 'ftp://example.com', /SITE_URL="ftp:\/\/example.com" is invalid: expected an http or https URL/],
    ['SITE_URL', 'javascript:alert(1)', /SITE_URL="javascript:alert\(1\)"/],
    // Hosts WHATWG URL lets through, which would break out of an href or a payload row.
    ['SITE_URL', 'https://exa"mple.com', /SITE_URL=.* is invalid: expected a host of letters, digits, hyphens and dots, or an IP address/],
    ['SITE_URL', "https://exa'mple.com", /SITE_URL=.* is invalid: expected a host/],
    ['SITE_URL', 'https://a{b}.com', /SITE_URL=.* is invalid: expected a host/],
  ])('rejects %s=%s with one line naming it', (variable, value, message) => {
    expect(() => readConfig({ [variable]: value })).toThrow(ConfigError);
    expect(() => readConfig({ [variable]: value })).toThrow(message);
    try {
      readConfig({ [variable]: value });
    } catch (error) {
      expect((error as Error).message).not.toContain('\n');
    }
  });

  it.each([
    ['false', false],
    ['0', false],
    ['1', 1],
    ['2', 2],
    ['loopback', ['loopback']],
    ['loopback, uniquelocal , linklocal', ['loopback', 'uniquelocal', 'linklocal']],
    ['10.0.0.0/8,192.168.0.1,fd00::/8', ['10.0.0.0/8', '192.168.0.1', 'fd00::/8']],
  ])('reads TRUST_PROXY=%s as proxy-addr does', (value, expected) => {
    expect(readConfig({ TRUST_PROXY: value }).trustProxy).toEqual(expected);
  });

  it('reads the stable and canary Services of a canary release as origins, both or neither', () => {
    expect(readConfig({}).releaseServices).toBeNull();
    const services = { STABLE_SERVICE_URL: 'http://web-stable.site.svc:80/', CANARY_SERVICE_URL: 'https://web-canary:8443' };
    expect(readConfig(services).releaseServices).toEqual({ stable: 'http://web-stable.site.svc', canary: 'https://web-canary:8443' });
    expect(() => readConfig({ STABLE_SERVICE_URL: 'http://web-stable' })).toThrow(/CANARY_SERVICE_URL is unset: .* together, or neither/);
    expect(() => readConfig({ CANARY_SERVICE_URL: 'http://web-canary' })).toThrow(/STABLE_SERVICE_URL is unset/);
  });

  it('never prints a token key, even a refused one', () => {
    for (const value of ['short-but-secret', `${'k'.repeat(32)},two words ${'k'.repeat(30)}`, Array(5).fill('k'.repeat(32)).join(',')]) {
      expect(() => readConfig({ TELEMETRY_TOKEN_KEYS: value })).toThrow(
        /^config: TELEMETRY_TOKEN_KEYS=\(hidden, \d+ characters\) is invalid: expected 1 to 4 comma-separated keys of at least 32 characters without spaces$/,
      );
    }
  });

  it('keeps page-view tokens alive over two poll intervals at least, three by default', () => {
    expect(readConfig({ BUILD_POLL_INTERVAL_MS: '3600000' }).telemetryTokenTtlMs).toBe(10_800_000);
    expect(readConfig({ BUILD_POLL_INTERVAL_MS: '600000', TELEMETRY_TOKEN_TTL_MS: '1200000' }).telemetryTokenTtlMs).toBe(1_200_000);
    expect(() => readConfig({ BUILD_POLL_INTERVAL_MS: '600000', TELEMETRY_TOKEN_TTL_MS: '1199999' })).toThrow(
      /TELEMETRY_TOKEN_TTL_MS=1199999 must be at least twice BUILD_POLL_INTERVAL_MS=600000/,
    );
    expect(() => readConfig({ TELEMETRY_TOKEN_TTL_MS: '59999' })).toThrow(
      /TELEMETRY_TOKEN_TTL_MS="59999" is invalid: expected an integer from 60000 to 604800000/,
    );
  });

  it('keeps the metrics port off the public port', () => {
    expect(() => readConfig({ PORT: '9464' })).toThrow(/METRICS_PORT=9464 must differ from PORT/);
  });

  it('cuts a huge bad value in the message', () => {
    expect(() => readConfig({ PORT: 'x'.repeat(10_000) })).toThrow(/^config: PORT="x{100}" is invalid/);
  });
});
