import type { I18nConfig } from 'next-i18next/proxy';
import { DEFAULT_LOCALE, LOCALES } from '@/shared/locales';
import { NAMESPACES } from './namespaces';

/** The next-i18next configuration of the server-side loader. */
export const i18nConfig = {
  supportedLngs: [...LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  defaultNS: 'common',
  ns: [...NAMESPACES],
  localeParamName: 'locale',
} satisfies I18nConfig;
