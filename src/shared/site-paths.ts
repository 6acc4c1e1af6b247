/**
 * The paths that are never pages, declared once: the probes, the build
 * freshness files, and the framework's and the APIs' prefixes. The locale
 * rules pass them by (src/i18n/routing.ts), the server answers the probes and
 * the build files itself (src/server/serving/), and the proxy's matcher
 * (src/proxy.ts, a literal Next reads at build time) is tested against them.
 */
export const HEALTH_PATH = '/healthz';
export const READINESS_PATH = '/readyz';

/**
 * Where the build freshness files live: `latest.json` (the build tabs belong on, and
 * during a canary release the canary's), `current.json` (the build of the server that
 * answers) and `meta/<id>.json`.
 */
export const BUILDS_PREFIX = '/builds/';
export const LATEST_BUILD_PATH = `${BUILDS_PREFIX}latest.json` as const;
export const CURRENT_BUILD_PATH = `${BUILDS_PREFIX}current.json` as const;
export const BUILD_MANIFEST_PREFIX = `${BUILDS_PREFIX}meta/` as const;

/** The URL of a build's route manifest. */
export function buildManifestPath(buildId: string): string {
  return `${BUILD_MANIFEST_PREFIX}${encodeURIComponent(buildId)}.json`;
}

/**
 * Where Next serves the build's hashed assets (scripts, styles, fonts): the server answers
 * them from memory with their own headers, the metrics count them under one route, and the
 * browser's chunk recovery knows a failed script of the build by it.
 */
export const BUILD_ASSETS_PATH = '/_next/static';
export const BUILD_ASSETS_PREFIX = `${BUILD_ASSETS_PATH}/` as const;

/** Paths under these prefixes are never pages: framework files, APIs, build metadata. */
export const PASSTHROUGH_PREFIXES: readonly string[] = ['/_next/', '/api/', BUILDS_PREFIX];

/** These exact paths are never pages either: the prefixes' roots and the probes. */
export const PASSTHROUGH_EXACT: ReadonlySet<string> = new Set(['/api', BUILDS_PREFIX.slice(0, -1), HEALTH_PATH, READINESS_PATH]);
