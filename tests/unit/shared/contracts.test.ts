import { readdirSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import nextConfig from '../../../next.config.js';
import { parseLatestBuild } from '@/freshness/build-poller';
import { isPassthroughPath } from '@/i18n/routing';
import { config as proxyConfig } from '@/proxy';
import { ConfigError, readConfig } from '@/server/config';
import { BUILD_POLL_INTERVAL_BOUNDS_MS, POLL_INTERVAL_HEADER } from '@/shared/build-poll';
import { ROUTER_REQUEST_HEADERS } from '@/shared/router-headers';
import { PASSTHROUGH_EXACT, PASSTHROUGH_PREFIXES } from '@/shared/site-paths';
import { TELEMETRY_ENDPOINT, TELEMETRY_EVENT_TYPES } from '@/shared/telemetry-events';
import { VARY_BY_LANGUAGE, VARY_BY_LANGUAGE_HEADER } from '@/shared/vary-by-language';

const ROOT = path.resolve(import.meta.dirname, '../../..');

/** Code only: a comment may name a contract (`/healthz`) without restating it. */
function withoutComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`\\])\/\/.*$/gm, '$1');
}
const SOURCES = readdirSync(path.join(ROOT, 'src'), { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.tsx?$/.test(file))
  .map((file) => ({
    file: `src/${file.split(path.sep).join('/')}`,
    text: withoutComments(readFileSync(path.join(ROOT, 'src', file), 'utf8')),
  }));

/** Files under src/ other than `declaredIn` that spell `literal`. */
function copiesOf(literal: string | RegExp, declaredIn: string): string[] {
  const spells = (text: string) => (typeof literal === 'string' ? text.includes(literal) : literal.test(text));
  return SOURCES.filter(({ file, text }) => file !== declaredIn && spells(text)).map(({ file }) => file);
}

const quoted = (value: string) => `'${value}'`;
const eventNames = TELEMETRY_EVENT_TYPES.join('|');
/** A string literal (any quote) that is exactly one of `values`, or starts with one when `prefix`. */
const literalOf = (values: readonly string[], prefix = false) =>
  new RegExp(`['"\`](?:${values.map((value) => value.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&')).join('|')})${prefix ? '' : '[\'"\`]'}`, 'i');

describe('each contract is declared once, in src/shared, and imported', () => {
  it.each([
    ['the Vary list', VARY_BY_LANGUAGE_HEADER, 'src/shared/vary-by-language.ts'],
    ['the Vary list as an array', VARY_BY_LANGUAGE.map(quoted).join(', '), 'src/shared/vary-by-language.ts'],
    ['the telemetry endpoint', quoted(TELEMETRY_ENDPOINT), 'src/shared/telemetry-events.ts'],
    // Two event names side by side are the start of a list; a single name is a use the TelemetryEvent type checks.
    ['a list of telemetry event names', new RegExp(`'(?:${eventNames})',\\s*'(?:${eventNames})'`), 'src/shared/telemetry-events.ts'],
    // Header names are case-insensitive: a lower-case copy is a copy too.
    ['the poll interval header', new RegExp(quoted(POLL_INTERVAL_HEADER), 'i'), 'src/shared/build-poll.ts'],
    ['the greatest poll interval', /\b86_?400_?000\b/, 'src/shared/build-poll.ts'],
    // The App Router's request headers, which routing.ts reads and the Vary lists name.
    ['a router request header', literalOf(ROUTER_REQUEST_HEADERS), 'src/shared/router-headers.ts'],
    ['a probe path', literalOf(['/healthz', '/readyz']), 'src/shared/site-paths.ts'],
    ['a build files path', literalOf(['/builds/', '/builds'], true), 'src/shared/site-paths.ts'],
  ])('%s', (_name, literal, declaredIn) => {
    expect(copiesOf(literal, declaredIn)).toEqual([]);
  });

  it("next.config.js's root Vary, for Next's own server, is the same list", async () => {
    const rules = (await nextConfig.headers?.()) ?? [];
    const root = rules.find((rule) => rule.source === '/');
    expect(root?.headers).toEqual([{ key: 'Vary', value: VARY_BY_LANGUAGE_HEADER }]);
  });
});

describe('the poll interval bounds', () => {
  const { min, max } = BUILD_POLL_INTERVAL_BOUNDS_MS;

  it.each([
    [min, true],
    [max, true],
    [min - 1, false],
    [max + 1, false],
  ])('%d ms: the server accepts it as BUILD_POLL_INTERVAL_MS and a tab trusts it alike (%s)', (interval, within) => {
    const configured = () => readConfig({ BUILD_POLL_INTERVAL_MS: String(interval) });
    if (within) expect(configured().buildPollIntervalMs).toBe(interval);
    else expect(configured).toThrow(ConfigError);
    expect(parseLatestBuild({ id: 'build' }, String(interval)).pollIntervalMs).toBe(within ? interval : null);
  });
});

describe('the proxy matcher (a literal Next reads at build time) and the pass-through list', () => {
  // Next's own reading of a matcher, as its build compiles it into the proxy's manifest.
  const requireNext = createRequire(path.join(ROOT, 'package.json'));
  const { getMiddlewareMatchers } = requireNext('next/dist/build/analysis/get-page-static-info.js') as {
    getMiddlewareMatchers(matcher: unknown, nextConfig: object): unknown[];
  };
  const { getMiddlewareRouteMatcher } = requireNext('next/dist/shared/lib/router/utils/middleware-route-matcher.js') as {
    getMiddlewareRouteMatcher(matchers: unknown[]): (pathname: string, req: object, query: object) => boolean;
  };
  const proxyRuns = getMiddlewareRouteMatcher(getMiddlewareMatchers(proxyConfig.matcher, {}));
  const runsOn = (pathname: string) => proxyRuns(pathname, { headers: {} }, {});

  const declared = [...PASSTHROUGH_EXACT, ...PASSTHROUGH_PREFIXES.flatMap((prefix) => [prefix, `${prefix}x`, `${prefix}a/b.json`])];
  const near = [...PASSTHROUGH_EXACT].flatMap((exact) => [`${exact}x`, `${exact}/x`, `${exact}-docs`, exact.toUpperCase()]);
  const pages = ['/', '/ja', '/zh-CN', '/en', '/x/y', '/a.b/c', '/foo.', '/_next', '/ja/_next/x'];
  const files = ['/favicon.ico', '/robots.txt', '/ja/image.PNG', '/a/b/c.txt', '/site.webmanifest'];

  it.each([...declared, ...near, ...pages, ...files])('%s: the proxy runs exactly where the path is not passed through', (pathname) => {
    expect(runsOn(pathname)).toBe(!isPassthroughPath(pathname));
  });

  it('agree on random paths', () => {
    const segment = fc.oneof(
      fc.constantFrom('api', 'builds', 'healthz', 'readyz', '_next', 'ja', 'en', 'x.json', 'a.b', ''),
      fc.webSegment(),
    );
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 4 }), (segments) => {
        const pathname = `/${segments.join('/')}`;
        expect(runsOn(pathname)).toBe(!isPassthroughPath(pathname));
      }),
      { numRuns: 2000, seed: 24 },
    );
  });
});
