import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DEFAULT_LOCALE, isLocale, type Locale } from '@/shared/locales';
import { observability } from '@/shared/observability';
import { isNamespace } from './namespaces';

export type Messages = { [key: string]: string | Messages };

export class LocaleLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'LocaleLoadError';
  }
}

function isMessages(value: unknown): value is Messages {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  return Object.values(value).every((entry) => typeof entry === 'string' || isMessages(entry));
}

async function readMessages(directory: string, locale: Locale, namespace: string): Promise<Messages> {
  const file = path.join(directory, locale, `${namespace}.json`);
  const parsed: unknown = JSON.parse(await readFile(file, 'utf8'));
  if (!isMessages(parsed)) {
    throw new LocaleLoadError(`i18n: ${file} must hold an object of strings; fix the file's shape`);
  }
  return parsed;
}

/**
 * Reads `<directory>/<locale>/<namespace>.json`. A missing or malformed file is
 * logged as `Failed locale loading` and replaced by the English messages, so
 * the visitor reads English rather than raw keys or a blank page.
 */
export function createMessageLoader(directory: string) {
  return async function loadMessages(locale: string, namespace: string): Promise<Messages> {
    if (!isLocale(locale) || !isNamespace(namespace)) {
      throw new LocaleLoadError(`i18n: no messages for locale "${locale}" and namespace "${namespace}"`);
    }
    try {
      return await readMessages(directory, locale, namespace);
    } catch (cause) {
      observability().logger.error({ locale, namespace, source: 'server', err: cause }, 'Failed locale loading');
      observability().localeLoadFailed({ locale, namespace, source: 'server' });
      if (locale === DEFAULT_LOCALE) return {};
      return loadMessages(DEFAULT_LOCALE, namespace);
    }
  };
}
