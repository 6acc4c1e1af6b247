import { DEFAULT_LOCALE, LOCALES, localizedPath, pathWithinLocale, type Locale } from '@/shared/locales';

/** `GET /builds/latest.json`: the build the servers run now. */
export interface LatestBuild {
  id: string;
  /** When the build was made, in ms since the epoch. */
  timestamp: number;
}

/** A redirect the locale rules always make (src/i18n/routing.ts), for clients that must not prefetch it. */
export interface RedirectRule {
  source: string;
  destination: string;
  status: 307 | 308;
  /** Set when the redirect depends on the request rather than the path alone. */
  when?: string;
}

/** `GET /builds/meta/<id>.json`: what a client needs to know about one build's routes. */
export interface RouteManifest extends LatestBuild {
  defaultLocale: Locale;
  locales: readonly Locale[];
  /** Public paths of the pages prerendered at build time, per locale. */
  prerendered: Record<Locale, string[]>;
  redirects: RedirectRule[];
}

const REDIRECTS: RedirectRule[] = [
  { source: `/${DEFAULT_LOCALE}`, destination: '/', status: 308 },
  { source: `/${DEFAULT_LOCALE}/:path*`, destination: '/:path*', status: 308 },
  ...LOCALES.filter((locale) => locale !== DEFAULT_LOCALE).map((locale) => ({
    source: `/${locale}/:path* (any letter case)`,
    destination: `/${locale}/:path*`,
    status: 308 as const,
    when: 'the prefix is not written as shown',
  })),
  {
    source: '/',
    destination: '/:locale',
    status: 307,
    when: 'the i18n_redirected cookie or Accept-Language names a locale other than English',
  },
];

/**
 * The route manifest of a build, from the internal paths Next prerendered
 * (`/en`, `/ja`, `/en/about`): written once by the build, never per request.
 */
export function routeManifest(build: LatestBuild, prerenderedInternalPaths: readonly string[]): RouteManifest {
  const prerendered = Object.fromEntries(LOCALES.map((locale) => [locale, [] as string[]])) as Record<Locale, string[]>;
  for (const internal of prerenderedInternalPaths) {
    const locale = LOCALES.find((candidate) => internal === `/${candidate}` || internal.startsWith(`/${candidate}/`));
    if (locale) prerendered[locale].push(localizedPath(locale, pathWithinLocale(internal)));
  }
  for (const paths of Object.values(prerendered)) paths.sort();
  return { id: build.id, timestamp: build.timestamp, defaultLocale: DEFAULT_LOCALE, locales: LOCALES, prerendered, redirects: REDIRECTS };
}
