import 'server-only';
import path from 'node:path';
import { createServerI18next } from 'next-i18next/server';
import type { Locale } from '@/shared/locales';
import { i18nConfig } from './i18next-config';
import type { ClientMessages } from './client-messages';
import { createMessageLoader, type Messages } from './message-loader';
import { CLIENT_NAMESPACES, type Namespace } from './namespaces';

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

/** What the browser needs: the Client Components' namespaces, in the active locale only. */
export async function getClientMessages(locale: Locale): Promise<ClientMessages> {
  const { i18n } = await server.getT([...CLIENT_NAMESPACES], { lng: locale });
  const bundles = server.getResources(i18n, [...CLIENT_NAMESPACES], [locale])[locale] ?? {};
  return Object.fromEntries(CLIENT_NAMESPACES.map((namespace) => [namespace, (bundles[namespace] ?? {}) as Messages])) as ClientMessages;
}
