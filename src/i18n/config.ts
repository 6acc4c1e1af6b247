import type { I18nConfig } from 'next-i18next/proxy';
import { DEFAULT_LOCALE, LOCALES } from '@/shared/locales';
import { LOCALE_COOKIE } from '@/shared/locale-cookie';
import { NAMESPACES } from './namespaces';

/** The one next-i18next configuration, shared by the server loader and the client provider. */
export const i18nConfig = {
  supportedLngs: [...LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  defaultNS: 'common',
  ns: [...NAMESPACES],
  localeParamName: 'locale',
  hideDefaultLocale: true,
  cookieName: LOCALE_COOKIE,
} satisfies I18nConfig;
