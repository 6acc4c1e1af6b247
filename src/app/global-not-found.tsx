import type { Metadata } from 'next';
import { headers } from 'next/headers';
import { localeOfPath, pathWithinLocale } from '@/shared/locales';
import { REQUESTED_PATH_HEADER } from '@/shared/request-headers';
import { BlankLayout } from '@/ui/layouts/blank-layout';
import { DocumentShell, documentMetadata } from '@/ui/layouts/document-shell';
import { NotFoundView } from '@/ui/not-found/not-found-view';
import { AlternateLinks } from '@/ui/seo/alternate-links';

export const metadata: Metadata = documentMetadata;

/**
 * Every path the site does not have, in any locale. Next renders this file,
 * whole, for unmatched URLs; a page calling `notFound()` would instead send
 * an empty body that only JavaScript fills (vercel/next.js#98954).
 */
export default async function GlobalNotFound() {
  const requestedPath = (await headers()).get(REQUESTED_PATH_HEADER) ?? '/';
  const locale = localeOfPath(requestedPath);
  return (
    <DocumentShell locale={locale}>
      <AlternateLinks locale={locale} path={pathWithinLocale(requestedPath).slice(0, 200)} />
      <BlankLayout>
        <NotFoundView locale={locale} requestedPath={requestedPath} />
      </BlankLayout>
    </DocumentShell>
  );
}
