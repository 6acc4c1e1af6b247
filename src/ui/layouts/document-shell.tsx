import type { Metadata } from 'next';
import type { ReactNode } from 'react';
import type { Locale } from '@/shared/locales';
import '@/ui/theme/globals.css';

/** What every document of the site declares in its head, whichever root layout renders it. */
export const documentMetadata = {
  icons: { icon: '/favicon.svg' },
} as const satisfies Metadata;

/**
 * The document around every page: the locale layout's (regular and error
 * pages) and the not-found page's, which Next renders without that layout.
 */
export function DocumentShell({ locale, children }: { locale: Locale; children: ReactNode }) {
  return (
    <html lang={locale}>
      <body>{children}</body>
    </html>
  );
}
