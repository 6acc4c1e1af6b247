'use client';

import type { ReactNode } from 'react';
import type { Resource } from 'i18next';
import { I18nProvider } from 'next-i18next/client';
import type { Locale } from '@/shared/locales';
import { i18nConfig } from './config';
import { reportMissingMessages } from './missing-messages-backend';

interface ClientI18nProviderProps {
  locale: Locale;
  messages: Resource;
  children: ReactNode;
}

/**
 * next-i18next's provider, fed only the active locale's messages. Its default
 * browser loader would turn a missing file into an empty object without a word;
 * ours reports the failure instead (every namespace ships with the page, so a
 * request for another one is a bug worth hearing about).
 */
export function ClientI18nProvider({ locale, messages, children }: ClientI18nProviderProps) {
  return (
    <I18nProvider
      language={locale}
      resources={messages}
      supportedLngs={i18nConfig.supportedLngs}
      defaultNS={i18nConfig.defaultNS}
      fallbackLng={locale}
      use={[reportMissingMessages]}
    >
      {children}
    </I18nProvider>
  );
}
