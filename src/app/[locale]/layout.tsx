import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { notFound } from 'next/navigation';
import { BuildFreshness } from '@/freshness/build-freshness';
import { ClientMessagesProvider } from '@/i18n/client-messages';
import { getClientMessages } from '@/i18n/server';
import { isLocale, LOCALES } from '@/shared/locales';
import { siteConfig } from '@/shared/site-config';
import { NavigationProgress } from '@/ui/navigation-progress/navigation-progress-view';
import { WebVitalsReporter } from '@/ui/web-vitals/web-vitals-reporter';
import '@/ui/theme/globals.css';

export const dynamicParams = false;

export function generateStaticParams() {
  return LOCALES.map((locale) => ({ locale }));
}

export const metadata: Metadata = {
  title: siteConfig.name,
  description: siteConfig.description || undefined,
  keywords: siteConfig.keywords.length > 0 ? siteConfig.keywords : undefined,
  icons: { icon: '/favicon.svg' },
};

export const viewport: Viewport = {
  themeColor: '#4a5dff',
};

export default async function LocaleLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  const messages = await getClientMessages(locale);

  return (
    <html lang={locale}>
      <body>
        <ClientMessagesProvider locale={locale} messages={messages}>
          <NavigationProgress />
          <WebVitalsReporter locale={locale} />
          <BuildFreshness locale={locale} />
          {children}
        </ClientMessagesProvider>
      </body>
    </html>
  );
}
