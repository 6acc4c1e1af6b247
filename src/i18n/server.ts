import 'server-only';
import path from 'node:path';
import { createServerI18next } from 'next-i18next/server';
import type { Resource } from 'i18next';
import type { Locale } from '@/shared/locales';
import { i18nConfig } from './config';
import { createMessageLoader } from './message-loader';
import { NAMESPACES, type Namespace } from './namespaces';

const server = createServerI18next({
  ...i18nConfig,
  // Not traced by the bundler: the build copies locales/ beside the server itself.
  resourceLoader: createMessageLoader(path.join(/* turbopackIgnore: true */ process.cwd(), 'locales')),
  // Each locale is read the first time a request needs it, then kept.
  i18nextOptions: { preload: [] },
});

/** The translation function of one namespace in one locale, for Server Components. */
export async function getTranslator(locale: Locale, namespace: Namespace) {
  const { t } = await server.getT(namespace, { lng: locale });
  return t;
}

/** Every namespace of the active locale only: what the browser needs, nothing more. */
export async function getClientMessages(locale: Locale): Promise<Resource> {
  const { i18n } = await server.getT([...NAMESPACES], { lng: locale });
  return server.getResources(i18n, [...NAMESPACES], [locale]);
}
