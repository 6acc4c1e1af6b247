'use client';

import { createContext, useCallback, useContext, type ReactNode } from 'react';
import { localizedPath, type Locale } from '@/shared/locales';
import { reportTelemetry } from '@/shared/telemetry-client';
import type { ClientNamespace } from './namespaces';

type MessageTree = { [key: string]: string | MessageTree };

export type ClientMessages = Readonly<Record<ClientNamespace, MessageTree>>;

interface ClientI18n {
  locale: Locale;
  messages: ClientMessages;
}

const ClientI18nContext = createContext<ClientI18n | null>(null);

/**
 * Hands Client Components the few messages they use, in the active locale,
 * already loaded by the server. No i18next runtime reaches the browser: the
 * server translates everything else.
 */
export function ClientMessagesProvider({ locale, messages, children }: ClientI18n & { children: ReactNode }) {
  return <ClientI18nContext.Provider value={{ locale, messages }}>{children}</ClientI18nContext.Provider>;
}

function lookup(tree: MessageTree, key: string): string | undefined {
  let node: string | MessageTree | undefined = tree;
  for (const part of key.split('.')) {
    if (typeof node !== 'object') return undefined;
    node = node[part];
  }
  return typeof node === 'string' ? node : undefined;
}

/** `{{name}}` placeholders, as in the locale files (i18next's syntax). */
export function interpolate(template: string, values: Record<string, string | number> = {}): string {
  return template.replace(/\{\{\s*(\w+)\s*\}\}/g, (match, name: string) => (name in values ? String(values[name]) : match));
}

function useClientI18n(): ClientI18n {
  const context = useContext(ClientI18nContext);
  if (!context) throw new Error('i18n: client messages need a ClientMessagesProvider above them (see src/app/[locale]/layout.tsx)');
  return context;
}

/** `path` in the page's locale, for Client Components. */
export function useLocalizedPath(path = '/'): string {
  return localizedPath(useClientI18n().locale, path);
}

/** The translation function of one client namespace. */
export function useClientT(namespace: ClientNamespace) {
  const { locale, messages } = useClientI18n();
  return useCallback(
    (key: string, values?: Record<string, string | number>) => {
      const template = lookup(messages[namespace], key);
      if (template === undefined) {
        console.error('Failed locale loading', { locale, namespace, key, source: 'client' });
        reportTelemetry({ type: 'locale_load_failed', locale, namespace, cause: `no message "${key}"` });
        return key;
      }
      return interpolate(template, values);
    },
    [locale, messages, namespace],
  );
}
