import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { getTranslator } from '@/i18n/server';
import { localeOfPath, pathWithinLocale } from '@/shared/locales';
import { REQUESTED_PATH_HEADER } from '@/shared/request-headers';
import { BlankLayout } from '@/ui/layouts/blank-layout';
import { NotFoundView } from '@/ui/not-found/not-found-view';
import { AlternateLinks } from '@/ui/seo/alternate-links';
import '@/ui/theme/globals.css';

/** The tab and search results say what the page says: "Page Not Found", in the visitor's language. */
export async function generateMetadata(): Promise<Metadata> {
  const locale = localeOfPath((await headers()).get(REQUESTED_PATH_HEADER) ?? '/');
  const t = await getTranslator(locale, 'not-found');
  return { title: t('title'), icons: { icon: '/favicon.svg' } };
}

/**
 * Every path the site does not have, in any locale. Next renders this file,
 * whole, for unmatched URLs; a page calling `notFound()` would instead send
 * an empty body that only JavaScript fills (vercel/next.js#98954).
 */
export default async function GlobalNotFound() {
  const requestedPath = (await headers()).get(REQUESTED_PATH_HEADER) ?? '/';
  const locale = localeOfPath(requestedPath);
  return (
    <html lang={locale}>
      <body>
        <AlternateLinks locale={locale} path={pathWithinLocale(requestedPath).slice(0, 200)} />
        <BlankLayout>
          <NotFoundView locale={locale} requestedPath={requestedPath} />
        </BlankLayout>
      </body>
    </html>
  );
}
