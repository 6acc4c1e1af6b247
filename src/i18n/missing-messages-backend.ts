import type { BackendModule, ReadCallback } from 'i18next';

/**
 * An i18next backend for the browser that loads nothing: the page ships every
 * namespace of its locale, so any read here is a namespace that was not shipped.
 */
export const reportMissingMessages: BackendModule = {
  type: 'backend',
  init() {},
  read(locale: string, namespace: string, callback: ReadCallback) {
    const cause = `namespace "${namespace}" was not shipped with the page`;
    console.error('Failed locale loading', { locale, namespace, source: 'client', cause });
    callback(new Error(`i18n: ${cause}; add it to NAMESPACES`), false);
  },
};
