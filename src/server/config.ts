import { isIP } from 'node:net';
import { compile as compileProxyTrust } from 'proxy-addr';
import { z } from 'zod';
import { BUILD_POLL_INTERVAL_BOUNDS_MS, DEFAULT_BUILD_POLL_INTERVAL_MS } from '@/shared/build-poll';
import { siteOrigin, siteUrlProblem } from '@/shared/site-origin.mjs';
import type { ServerConfigVariable } from './config-variables.mjs';

/**
 * Every setting of the server process, read from the environment once at
 * start-up, validated and frozen. Nothing else in src/server reads `process.env`
 * (the OpenTelemetry SDK reads its own standard OTEL_* variables).
 */
const boundedInteger = (min: number, max: number) =>
  z.coerce
    .number({ error: `expected an integer from ${min} to ${max}` })
    .int({ error: `expected an integer from ${min} to ${max}` })
    .min(min, { error: `expected an integer from ${min} to ${max}` })
    .max(max, { error: `expected an integer from ${min} to ${max}` });

const integer = (min: number, max: number, fallback: number) => boundedInteger(min, max).default(fallback);

const flag = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0'], { error: 'expected true or false' })
    .default(fallback ? 'true' : 'false')
    .transform((value) => value === 'true' || value === '1');

/**
 * Which peers may tell us the client's address, scheme and host, as Express's
 * "trust proxy" (proxy-addr): nobody, the last N hops, or the listed
 * addresses, CIDRs and proxy-addr's names. "true" (every hop) is refused: the
 * left-most X-Forwarded-For entry is whatever the visitor wrote.
 */
export type TrustProxy = false | number | readonly string[];

const TRUST_PROXY_ALTERNATIVES =
  'use false, a number of trusted hops from 0 to 100 (1 behind one load balancer), or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal';

const PROXY_NAMES = new Set(['loopback', 'linklocal', 'uniquelocal']);

/** An entry of a TRUST_PROXY list: proxy-addr's names, or an IP address with an optional prefix length. */
function isProxyAddress(entry: string): boolean {
  return PROXY_NAMES.has(entry) || isIP(entry.split('/')[0] ?? '') !== 0;
}

const trustProxy = z
  .string()
  .default('false')
  .transform((value, ctx): TrustProxy => {
    const text = value.trim();
    if (text === 'false') return false;
    if (text === 'true') {
      ctx.addIssue({ code: 'custom', message: `trusting every hop lets any visitor choose their address; ${TRUST_PROXY_ALTERNATIVES}` });
      return z.NEVER;
    }
    if (/^\d+$/.test(text)) {
      const hops = Number(text);
      if (hops <= 100) return hops === 0 ? false : hops;
    }
    const entries = text.split(',').map((entry) => entry.trim());
    try {
      // proxy-addr reads a bare number as an IPv4 address (101 as 0.0.0.101): only
      // address literals and its names may stand in a list.
      if (!entries.every(isProxyAddress)) throw new Error('not an address');
      compileProxyTrust(entries);
      return Object.freeze(entries);
    } catch {
      ctx.addIssue({ code: 'custom', message: TRUST_PROXY_ALTERNATIVES });
      return z.NEVER;
    }
  });

/** A Service that reaches the pods of one build (Argo Rollouts' stableService or canaryService): an origin. */
const serviceUrl = z
  .string()
  .transform((value, ctx) => {
    const url = URL.canParse(value) ? new URL(value) : null;
    if (!url || (url.protocol !== 'http:' && url.protocol !== 'https:')) {
      ctx.addIssue({ code: 'custom', message: 'expected an http(s) URL' });
      return z.NEVER;
    }
    if (url.pathname !== '/' || url.search || url.hash) {
      ctx.addIssue({ code: 'custom', message: 'expected an origin, with no path or query' });
      return z.NEVER;
    }
    return url.origin;
  })
  .optional();

/** Page-view token keys: at least this long, so they cannot be guessed. */
const MIN_TOKEN_KEY_LENGTH = 32;

/**
 * The secrets page-view tokens are signed with (serving/telemetry/page-view-tokens.ts):
 * comma-separated, the first signs and every one verifies, so a key is rotated by putting the
 * new one first and dropping the old one a token lifetime after every pod has the new list.
 */
const tokenKeys = z
  .string()
  .transform((value, ctx) => {
    const keys = value.split(',').map((key) => key.trim());
    if (keys.length > 4 || keys.some((key) => key.length < MIN_TOKEN_KEY_LENGTH || /\s/.test(key))) {
      ctx.addIssue({
        code: 'custom',
        message: `expected 1 to 4 comma-separated keys of at least ${MIN_TOKEN_KEY_LENGTH} characters without spaces`,
      });
      return z.NEVER;
    }
    return Object.freeze(keys);
  })
  .optional();

/** Variables whose values are never printed. */
const SECRETS: ReadonlySet<string> = new Set(['TELEMETRY_TOKEN_KEYS']);

/** Page-view tokens live 30 minutes by default, and at least three poll intervals, so open tabs renew theirs in time. */
const DEFAULT_TOKEN_TTL_MS = 1_800_000;
/** A minute to a week. */
const TOKEN_TTL_BOUNDS_MS = { min: 60_000, max: 604_800_000 };

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;

const schema = z.object({
  PORT: integer(1, 65_535, 3000),
  HOSTNAME: z.string().min(1, { error: 'expected an address to bind' }).default('0.0.0.0'),
  METRICS_PORT: integer(1, 65_535, 9464),
  LOG_LEVEL: z.enum(LOG_LEVELS, { error: `expected one of ${LOG_LEVELS.join(', ')}` }).default('info'),
  SHUTDOWN_DELAY_MS: integer(0, 600_000, 5000),
  SHUTDOWN_TIMEOUT_MS: integer(0, 600_000, 20_000),
  KEEP_ALIVE_TIMEOUT_MS: integer(1000, 3_600_000, 65_000),
  HEADERS_TIMEOUT_MS: integer(1000, 120_000, 10_000),
  MAX_CONNECTIONS: integer(1, 1_000_000, 10_000),
  TRUST_PROXY: trustProxy,
  HSTS: flag(false),
  TELEMETRY_RATE_LIMIT_PER_MINUTE: integer(1, 100_000, 60),
  TELEMETRY_TOKEN_KEYS: tokenKeys,
  TELEMETRY_TOKEN_TTL_MS: boundedInteger(TOKEN_TTL_BOUNDS_MS.min, TOKEN_TTL_BOUNDS_MS.max).optional(),
  POD_IP: z
    .string()
    .refine((value) => isIP(value) !== 0, { error: 'expected an IPv4 or IPv6 address (the pod’s status.podIP)' })
    .optional(),
  BUILD_POLL_INTERVAL_MS: integer(BUILD_POLL_INTERVAL_BOUNDS_MS.min, BUILD_POLL_INTERVAL_BOUNDS_MS.max, DEFAULT_BUILD_POLL_INTERVAL_MS),
  RENDER_CONCURRENCY: integer(1, 64, 4),
  RENDER_QUEUE: integer(0, 10_000, 16),
  NEXT_ANSWERS_ALL: flag(false),
  STABLE_SERVICE_URL: serviceUrl,
  CANARY_SERVICE_URL: serviceUrl,
  SITE_URL: z
    .string()
    .superRefine((value, ctx) => {
      const problem = siteUrlProblem(value);
      if (problem) ctx.addIssue({ code: 'custom', message: problem });
    })
    .transform((value) => siteOrigin(value) ?? null)
    .optional(),
  OTEL_SERVICE_NAME: z.string().min(1).default('meridian'),
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ error: 'expected an http(s) URL' }).optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.url({ error: 'expected an http(s) URL' }).optional(),
  OTEL_SDK_DISABLED: flag(false),
} satisfies Record<ServerConfigVariable, z.ZodType>);

export interface ServerConfig {
  readonly port: number;
  readonly hostname: string;
  readonly metricsPort: number;
  readonly logLevel: (typeof LOG_LEVELS)[number];
  readonly shutdownDelayMs: number;
  readonly shutdownTimeoutMs: number;
  readonly keepAliveTimeoutMs: number;
  /** How long a client may take to send a request's head (request line and headers) before a 408. */
  readonly headersTimeoutMs: number;
  /** Open connections on the public port, at most; more are closed at once. */
  readonly maxConnections: number;
  /** Which peers' X-Forwarded-For, -Proto and -Host to believe (see TrustProxy). */
  readonly trustProxy: TrustProxy;
  readonly hsts: boolean;
  readonly telemetryRateLimitPerMinute: number;
  /**
   * The keys page-view tokens are signed and verified with, the first signing; null when unset,
   * and the server then makes one of its own, which no other process shares.
   */
  readonly telemetryTokenKeys: readonly string[] | null;
  /** How long a page-view token is accepted after it was issued or renewed. */
  readonly telemetryTokenTtlMs: number;
  /**
   * This pod's address, where the other pods of its release reach it (Kubernetes' status.podIP):
   * its page-view tokens name it, so each page view's reports are counted by one pod. Null elsewhere.
   */
  readonly podIp: string | null;
  /** How often open tabs ask for builds/latest.json (they add ±10% jitter). */
  readonly buildPollIntervalMs: number;
  /** What Next renders at once, in the renderer's process, and how many more may wait; beyond, 503 (src/server/rendering/). */
  readonly render: { readonly concurrency: number; readonly queue: number };
  /**
   * Whether Next answers everything the server otherwise answers from memory out of Next's
   * private formats (serving/next-compat/): the prerendered pages, their router payloads, the
   * not-found pages. For a Next those formats were not checked against.
   */
  readonly nextAnswersAll: boolean;
  /**
   * During canary releases: the origins of the Services that reach only the stable build's
   * pods and only the canary's (serving/canary/release-view.ts). Null outside them.
   */
  readonly releaseServices: { readonly stable: string; readonly canary: string } | null;
  /**
   * SITE_URL's origin: the pages' canonical and `hreflang` links, the sitemap, robots.txt
   * and an Origin the telemetry endpoint accepts. Null when unset: relative links, no sitemap.
   */
  readonly siteUrl: string | null;
  readonly tracing: { readonly enabled: boolean; readonly serviceName: string };
}

/** A bad setting: its message is the one line printed before exiting with status 1. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function readConfig(env: Record<string, string | undefined>): ServerConfig {
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = schema.safeParse(present);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    const value = String(env[variable] ?? '');
    // A secret stays out of the log, even a wrong one: it may be a real key in the wrong place.
    const shown = SECRETS.has(variable) ? `(hidden, ${value.length} characters)` : JSON.stringify(value.slice(0, 100));
    throw new ConfigError(`config: ${variable}=${shown} is invalid: ${issue?.message ?? 'unexpected value'}`);
  }
  const values = parsed.data;
  if (values.PORT === values.METRICS_PORT) {
    throw new ConfigError(`config: METRICS_PORT=${values.METRICS_PORT} must differ from PORT, so /metrics stays off the public port`);
  }
  if (Boolean(values.STABLE_SERVICE_URL) !== Boolean(values.CANARY_SERVICE_URL)) {
    const missing = values.STABLE_SERVICE_URL ? 'CANARY_SERVICE_URL' : 'STABLE_SERVICE_URL';
    throw new ConfigError(`config: ${missing} is unset: STABLE_SERVICE_URL and CANARY_SERVICE_URL are set together, or neither`);
  }
  const minimumTtl = 2 * values.BUILD_POLL_INTERVAL_MS;
  const tokenTtl = values.TELEMETRY_TOKEN_TTL_MS ?? Math.max(DEFAULT_TOKEN_TTL_MS, 3 * values.BUILD_POLL_INTERVAL_MS);
  if (tokenTtl < minimumTtl) {
    throw new ConfigError(
      `config: TELEMETRY_TOKEN_TTL_MS=${tokenTtl} must be at least twice BUILD_POLL_INTERVAL_MS=${values.BUILD_POLL_INTERVAL_MS}, so open tabs renew their page-view tokens before they expire`,
    );
  }
  const releaseServices =
    values.STABLE_SERVICE_URL && values.CANARY_SERVICE_URL
      ? Object.freeze({ stable: values.STABLE_SERVICE_URL, canary: values.CANARY_SERVICE_URL })
      : null;
  return Object.freeze({
    port: values.PORT,
    hostname: values.HOSTNAME,
    metricsPort: values.METRICS_PORT,
    logLevel: values.LOG_LEVEL,
    shutdownDelayMs: values.SHUTDOWN_DELAY_MS,
    shutdownTimeoutMs: values.SHUTDOWN_TIMEOUT_MS,
    keepAliveTimeoutMs: values.KEEP_ALIVE_TIMEOUT_MS,
    headersTimeoutMs: values.HEADERS_TIMEOUT_MS,
    maxConnections: values.MAX_CONNECTIONS,
    trustProxy: values.TRUST_PROXY,
    hsts: values.HSTS,
    telemetryRateLimitPerMinute: values.TELEMETRY_RATE_LIMIT_PER_MINUTE,
    telemetryTokenKeys: values.TELEMETRY_TOKEN_KEYS ?? null,
    telemetryTokenTtlMs: tokenTtl,
    podIp: values.POD_IP ?? null,
    buildPollIntervalMs: values.BUILD_POLL_INTERVAL_MS,
    render: Object.freeze({ concurrency: values.RENDER_CONCURRENCY, queue: values.RENDER_QUEUE }),
    nextAnswersAll: values.NEXT_ANSWERS_ALL,
    releaseServices,
    siteUrl: values.SITE_URL ?? null,
    tracing: Object.freeze({
      enabled: !values.OTEL_SDK_DISABLED && Boolean(values.OTEL_EXPORTER_OTLP_ENDPOINT || values.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT),
      serviceName: values.OTEL_SERVICE_NAME,
    }),
  });
}
