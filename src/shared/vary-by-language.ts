/**
 * The request headers an answer at the root depends on: the language cookie
 * and Accept-Language pick its locale (src/i18n/routing.ts). Every answer that
 * may differ by them names them in Vary, so a cache never serves one visitor's
 * language to another.
 */
export const VARY_BY_LANGUAGE = ['Cookie', 'Accept-Language'] as const;

/** VARY_BY_LANGUAGE as a header value. */
export const VARY_BY_LANGUAGE_HEADER = VARY_BY_LANGUAGE.join(', ');
