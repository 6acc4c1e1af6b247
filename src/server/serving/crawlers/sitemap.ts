import { DEFAULT_LOCALE, isLocale, LOCALES, localizedPath, pathWithinLocale, type Locale } from '@/shared/locales';

const escapeXml = (text: string) =>
  text.replace(/[&<>"']/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' })[char] as string);

/** Each page (its path within a locale) with the locales it exists in, in LOCALES order. */
function pagesByPath(internalPaths: Iterable<string>): Map<string, Locale[]> {
  const pages = new Map<string, Locale[]>();
  for (const internal of internalPaths) {
    const locale = /^\/([^/]+)/.exec(internal)?.[1];
    if (!isLocale(locale)) continue;
    const path = pathWithinLocale(internal);
    pages.set(path, [...(pages.get(path) ?? []), locale]);
  }
  for (const [path, locales] of pages)
    pages.set(
      path,
      LOCALES.filter((locale) => locales.includes(locale)),
    );
  return pages;
}

/**
 * The sitemap (sitemaps.org 0.9) of every page in every locale, each with its
 * alternates and x-default as Google reads them
 * (https://developers.google.com/search/docs/specialty/international/localized-versions#sitemap),
 * the same links the pages carry in their heads (src/ui/seo/alternate-links.tsx).
 * `siteUrl` is the configured origin: never the request's Host.
 */
export function renderSitemap(siteUrl: string, internalPaths: Iterable<string>): string {
  const absolute = (locale: Locale, path: string) => escapeXml(`${siteUrl}${localizedPath(locale, path)}`);
  const entries: string[] = [];
  for (const [path, locales] of pagesByPath(internalPaths)) {
    const xDefault = locales.includes(DEFAULT_LOCALE) ? DEFAULT_LOCALE : locales[0];
    const alternates = [
      ...locales.map((locale) => `    <xhtml:link rel="alternate" hreflang="${locale}" href="${absolute(locale, path)}"/>`),
      ...(xDefault ? [`    <xhtml:link rel="alternate" hreflang="x-default" href="${absolute(xDefault, path)}"/>`] : []),
    ];
    for (const locale of locales) {
      entries.push(['  <url>', `    <loc>${absolute(locale, path)}</loc>`, ...alternates, '  </url>'].join('\n'));
    }
  }
  return [
    '<?xml version="1.0" encoding="UTF-8"?>',
    '<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
    ...entries,
    '</urlset>',
    '',
  ].join('\n');
}

/** robots.txt: everything may be crawled; the sitemap is named when there is one (its URL must be absolute). */
export function renderRobots(siteUrl: string | undefined): string {
  return ['User-agent: *', 'Allow: /', ...(siteUrl ? ['', `Sitemap: ${siteUrl}/sitemap.xml`] : []), ''].join('\n');
}
