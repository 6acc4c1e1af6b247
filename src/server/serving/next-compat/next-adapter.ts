import { readFileSync } from 'node:fs';
import { installedNextVersion, UnsupportedNextError } from './next-version';

/**
 * The one place Meridian leans on Next's internals. Next has no public way to
 * start a standalone build with the config `next build` wrote: its `conf`
 * option validates that config again and loads webpack, which standalone
 * output does not carry. Next's own standalone server.js hands the config over
 * in this variable, and so do we, once the checks below have passed.
 */
const STANDALONE_CONFIG_VARIABLE = '__NEXT_PRIVATE_STANDALONE_CONFIG';
/** The Next major this adapter was written and tested for. */
const WRITTEN_FOR_NEXT_MAJOR = 16;

/**
 * Fails with one line naming the installed Next version unless that Next is
 * the major this adapter was written for and its config loader still reads
 * the variable; `requireFromBuild` resolves from the standalone build.
 */
export function checkNextInternals(requireFromBuild: NodeJS.Require): void {
  const version = installedNextVersion(requireFromBuild);
  const unsupported = (reason: string) =>
    new UnsupportedNextError(
      `Next ${version} is not supported by src/server/serving/next-compat/next-adapter.ts: ${reason}. ` +
        `See how Next ${version}'s standalone server.js starts Next, and update the adapter.`,
    );
  if (Number(version.split('.')[0]) !== WRITTEN_FOR_NEXT_MAJOR) {
    throw unsupported(`it was written for Next ${WRITTEN_FOR_NEXT_MAJOR}`);
  }
  const configLoader = readFileSync(requireFromBuild.resolve('next/dist/server/config.js'), 'utf8');
  if (!configLoader.includes(STANDALONE_CONFIG_VARIABLE)) {
    throw unsupported(`its config loader no longer reads ${STANDALONE_CONFIG_VARIABLE}`);
  }
}

/** Has Next use the config `next build` wrote, as its standalone server.js does. */
export function applyBuildConfig(requireFromBuild: NodeJS.Require, config: unknown): void {
  checkNextInternals(requireFromBuild);
  process.env[STANDALONE_CONFIG_VARIABLE] = JSON.stringify(config);
}

const ROUTER_STATE_VALIDATOR = 'next/dist/server/app-render/parse-and-validate-flight-router-state.js';

/**
 * Whether Next would accept a router request's `Next-Router-State-Tree` header, by
 * Next's own parser: a header it cannot parse makes Next answer 500, while it is the
 * client's mistake (a 400). Absent is fine.
 */
export function routerStateCheck(requireFromBuild: NodeJS.Require): (header: string | string[] | undefined) => boolean {
  let validator: { parseAndValidateFlightRouterState?: (header: unknown) => unknown };
  try {
    validator = requireFromBuild(ROUTER_STATE_VALIDATOR) as typeof validator;
  } catch {
    validator = {};
  }
  const parse = validator.parseAndValidateFlightRouterState;
  if (typeof parse !== 'function') {
    throw new UnsupportedNextError(
      `Next ${installedNextVersion(requireFromBuild)} is not supported by src/server/serving/next-compat/next-adapter.ts: ${ROUTER_STATE_VALIDATOR} no longer exports parseAndValidateFlightRouterState`,
    );
  }
  return (header) => {
    try {
      parse(header);
      return true;
    } catch {
      return false;
    }
  };
}

const CACHE_BUSTING_MODULE = 'next/dist/shared/lib/router/utils/cache-busting-search-param.js';
const CACHE_BUSTING_URL_MODULE = 'next/dist/client/components/router-reducer/set-cache-busting-search-param.js';

/** The router headers Next hashes into a payload request's `_rsc` parameter, as Next reads them. */
export interface CacheBustingHeaders {
  prefetch: string | undefined;
  segmentPrefetch: string | undefined;
  stateTree: string | undefined;
  nextUrl: string | undefined;
}

export interface CacheBusting {
  /**
   * Whether `sent` (the request's first `_rsc`, null without one) is the hash Next expects of
   * `headers`, in either of its forms: at once when these headers were seen lately.
   */
  matches(headers: CacheBustingHeaders, sent: string | null): boolean | Promise<boolean>;
  /** Where Next redirects a payload request whose `_rsc` does not match: `target` with the expected one. */
  redirectTarget(target: string, headers: CacheBustingHeaders): Promise<string>;
}

const MAX_REMEMBERED = 256;
const MAX_REMEMBERED_KEY = 4096;

type Hashes = {
  computeCacheBustingSearchParam?: (...headers: (string | undefined)[]) => Promise<string>;
  computeLegacyCacheBustingSearchParam?: (...headers: (string | undefined)[]) => string;
};
type UrlHash = { setCacheBustingSearchParamWithHash?: (url: URL, hash: string) => void };

/**
 * Next's own check of a router payload request's `_rsc` parameter (a hash of its
 * router headers, so a cache that ignores Vary cannot mix payloads up), lent so
 * the payloads answered from memory keep it: Next redirects a request whose
 * hash does not match to the URL with the right one (307).
 */
export function cacheBusting(requireFromBuild: NodeJS.Require): CacheBusting {
  let hashes: Hashes = {};
  let url: UrlHash = {};
  try {
    hashes = requireFromBuild(CACHE_BUSTING_MODULE) as Hashes;
    url = requireFromBuild(CACHE_BUSTING_URL_MODULE) as UrlHash;
  } catch {
    // Named below.
  }
  const { computeCacheBustingSearchParam: expected, computeLegacyCacheBustingSearchParam: legacy } = hashes;
  const withHash = url.setCacheBustingSearchParamWithHash;
  if (typeof expected !== 'function' || typeof legacy !== 'function' || typeof withHash !== 'function') {
    throw new UnsupportedNextError(
      `Next ${installedNextVersion(requireFromBuild)} is not supported by src/server/serving/next-compat/next-adapter.ts: ${CACHE_BUSTING_MODULE} or ${CACHE_BUSTING_URL_MODULE} no longer exports the cache-busting hash`,
    );
  }
  const args = (headers: CacheBustingHeaders) => [headers.prefetch, headers.segmentPrefetch, headers.stateTree, headers.nextUrl];
  // A tab sends the same few router headers again and again: each one's hash (Web Crypto, a
  // trip to the thread pool) is remembered, boundedly, as negotiation.ts remembers codings.
  const remembered = new Map<string, string>();
  const keyOf = (headers: CacheBustingHeaders) =>
    args(headers)
      .map((value) => (value === undefined ? '\u0000' : value))
      .join('\u0001');
  const expectedOf = async (headers: CacheBustingHeaders, key: string) => {
    const hash = await expected(...args(headers));
    if (key.length <= MAX_REMEMBERED_KEY) {
      if (remembered.size >= MAX_REMEMBERED) remembered.clear();
      remembered.set(key, hash);
    }
    return hash;
  };
  return {
    matches(headers, sent) {
      if (sent === null) return false;
      const key = keyOf(headers);
      const known = remembered.get(key);
      if (known !== undefined) return known === sent || legacy(...args(headers)) === sent;
      return expectedOf(headers, key).then((hash) => hash === sent || legacy(...args(headers)) === sent);
    },
    async redirectTarget(target, headers) {
      const location = new URL(target, 'http://localhost');
      withHash(location, await expected(...args(headers)));
      return `${location.pathname}${location.search}`;
    },
  };
}
