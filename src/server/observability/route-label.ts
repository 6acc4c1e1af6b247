import { decideRoute, type RoutingDecision } from '@/i18n/routing';
import { DEFAULT_LOCALE, LOCALES } from '@/shared/locales';
import {
  BUILD_ASSETS_PATH,
  BUILD_ASSETS_PREFIX,
  BUILD_MANIFEST_PREFIX,
  CURRENT_BUILD_PATH,
  HEALTH_PATH,
  LATEST_BUILD_PATH,
  READINESS_PATH,
} from '@/shared/site-paths';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';

/**
 * The route templates a request is counted under: a fixed set, so metric
 * labels stay bounded whatever paths arrive. Never a raw path.
 */
export const ROUTES = [
  '/',
  '/[locale]',
  HEALTH_PATH,
  READINESS_PATH,
  '/metrics',
  TELEMETRY_ENDPOINT,
  LATEST_BUILD_PATH,
  CURRENT_BUILD_PATH,
  `${BUILD_MANIFEST_PREFIX}[id]`,
  BUILD_ASSETS_PATH,
  '/_next/image',
  '/_next/other',
  'public_file',
  'redirect',
  'not_found',
  'other',
  /** Answered before it could be parsed: see serving/edge/unparsed-requests.ts. */
  'unparsed',
] as const;

export type RouteLabel = (typeof ROUTES)[number];

/** The internal path of the root page, and of each locale's home. */
const ROOT_PAGE = `/${DEFAULT_LOCALE}`;
const LOCALE_HOMES: ReadonlySet<string> = new Set(LOCALES.map((locale) => `/${locale}`));

/** The template of a path the locale rules pass by: probes, APIs, build files, framework and public files. */
function passedTemplateOf(pathname: string): RouteLabel {
  if (pathname === HEALTH_PATH || pathname === READINESS_PATH || pathname === '/metrics') return pathname;
  if (pathname === TELEMETRY_ENDPOINT || pathname === LATEST_BUILD_PATH || pathname === CURRENT_BUILD_PATH) return pathname;
  if (pathname.startsWith(BUILD_MANIFEST_PREFIX)) return `${BUILD_MANIFEST_PREFIX}[id]`;
  if (pathname.startsWith(BUILD_ASSETS_PREFIX)) return BUILD_ASSETS_PATH;
  if (pathname.startsWith('/_next/image')) return '/_next/image';
  if (pathname.startsWith('/_next/')) return '/_next/other';
  return 'public_file';
}

function templateOf(pathname: string, decision: RoutingDecision): RouteLabel {
  if (decision.kind === 'pass') return passedTemplateOf(pathname);
  if (decision.kind === 'redirect') return 'redirect';
  if (decision.internalPathname === ROOT_PAGE) return '/';
  return LOCALE_HOMES.has(decision.internalPathname) ? '/[locale]' : 'other';
}

/** A status that sends the visitor elsewhere; 304 (their copy is good) is an answer of the page itself. */
function isRedirect(status: number): boolean {
  return status >= 300 && status < 400 && status !== 304;
}

/**
 * The template of a finished request, from the decision made at its start
 * (src/server/serving/routing/request-route.ts): its status decides between
 * a page, a redirect and not_found.
 */
export function routeLabel(pathname: string, decision: RoutingDecision, status: number): RouteLabel {
  if (status === 404) return 'not_found';
  const template = templateOf(pathname, decision);
  if (isRedirect(status) && (template === '/' || template === '/[locale]' || template === 'other')) return 'redirect';
  return template;
}

/** The template a path a browser reports (not a request of ours) counts under, as if it answered 200. */
export function reportedRouteLabel(pathname: string): RouteLabel {
  return routeLabel(pathname, decideRoute({ pathname, cookie: undefined, acceptLanguage: null, isDocument: false }), 200);
}

/** TRACE and CONNECT are named so probes for them show up; any other method is `other`. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'TRACE', 'CONNECT']);

export function methodLabel(method: string | undefined): string {
  return method && METHODS.has(method) ? method : 'other';
}

/** Status codes outside 100–599 (which Node would refuse anyway) collapse to one label. */
export function statusLabel(status: number): string {
  return Number.isInteger(status) && status >= 100 && status <= 599 ? String(status) : 'other';
}
