import type { Metadata, Viewport } from 'next';
import type { ReactNode } from 'react';
import { ClientMessagesProvider } from '@/i18n/client-messages';
import { routeLocale } from '@/i18n/route-locale';
import { getClientMessages } from '@/i18n/server';
import { LOCALES } from '@/shared/locales';
import { siteConfig } from '@/shared/site-config';
import { DocumentShell, documentMetadata } from '@/ui/layouts/document-shell';
import { NavigationProgress } from '@/ui/navigation-progress/navigation-progress-view';
import { RouterLinks } from '@/ui/navigation/router-links';
import { BackgroundWork } from './background-work';

export const dynamicParams = false;

export function generateStaticParams() {
  return LOCALES.map((locale) => ({ locale }));
}

export const metadata: Metadata = {
  ...documentMetadata,
  title: siteConfig.name,
  description: siteConfig.description || undefined,
  keywords: siteConfig.keywords.length > 0 ? siteConfig.keywords : undefined,
};

export const viewport: Viewport = {
  themeColor: '#4a5dff',
};

export default async function LocaleLayout({ children, params }: { children: ReactNode; params: Promise<{ locale: string }> }) {
  const locale = await routeLocale(params);
  const messages = await getClientMessages(locale);

  return (
    <DocumentShell locale={locale}>
      <ClientMessagesProvider locale={locale} messages={messages}>
        <NavigationProgress />
        <RouterLinks />
        <BackgroundWork locale={locale} />
        {children}
      </ClientMessagesProvider>
    </DocumentShell>
  );
}
