import { decideRoute } from '@/i18n/routing';
import { DEFAULT_LOCALE } from '@/shared/locales';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';

/**
 * The route templates a request is counted under: a fixed set, so metric
 * labels stay bounded whatever paths arrive. Never a raw path.
 */
export const ROUTES = [
  '/',
  '/[locale]',
  '/healthz',
  '/readyz',
  '/metrics',
  TELEMETRY_ENDPOINT,
  '/builds/latest.json',
  '/builds/meta/[id]',
  '/_next/static',
  '/_next/image',
  '/_next/other',
  'public_file',
  'redirect',
  'not_found',
  'other',
] as const;

export type RouteLabel = (typeof ROUTES)[number];

function templateOf(pathname: string): RouteLabel {
  if (pathname === '/healthz' || pathname === '/readyz' || pathname === '/metrics') return pathname;
  if (pathname === TELEMETRY_ENDPOINT || pathname === '/builds/latest.json') return pathname;
  if (pathname.startsWith('/builds/meta/')) return '/builds/meta/[id]';
  if (pathname.startsWith('/_next/static/')) return '/_next/static';
  if (pathname.startsWith('/_next/image')) return '/_next/image';
  if (pathname.startsWith('/_next/')) return '/_next/other';
  const decision = decideRoute({ pathname, cookie: undefined, acceptLanguage: null, isDocument: false });
  if (decision.kind === 'pass') return 'public_file';
  if (decision.kind === 'redirect') return 'redirect';
  if (decision.internalPathname === `/${DEFAULT_LOCALE}`) return '/';
  if (decision.internalPathname === `/${decision.locale}`) return '/[locale]';
  return 'other';
}

/**
 * Templates of the paths seen lately: the same few pages are asked for again
 * and again. Any path may arrive, so past the bound the memo starts afresh.
 */
const MEMO_ENTRIES = 1024;
const MEMO_PATH_LENGTH = 256;
const templates = new Map<string, RouteLabel>();

function rememberedTemplateOf(pathname: string): RouteLabel {
  if (pathname.length > MEMO_PATH_LENGTH) return templateOf(pathname);
  let template = templates.get(pathname);
  if (template === undefined) {
    if (templates.size >= MEMO_ENTRIES) templates.clear();
    template = templateOf(pathname);
    templates.set(pathname, template);
  }
  return template;
}

/** The template of a finished request: its status decides between a page, a redirect and not_found. */
export function routeLabel(pathname: string, status: number): RouteLabel {
  if (status === 404) return 'not_found';
  const template = rememberedTemplateOf(pathname);
  if (status >= 300 && status < 400 && (template === '/' || template === '/[locale]' || template === 'other')) {
    return 'redirect';
  }
  return template;
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
