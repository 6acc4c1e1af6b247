import type { Locale } from './locales';

/** The cookie that remembers a visitor's language (name kept from the original site). */
export const LOCALE_COOKIE = 'i18n_redirected';

export const LOCALE_COOKIE_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/** The attributes both writers (the proxy and the switcher) use. */
export function localeCookieAttributes(secure: boolean) {
  return {
    path: '/',
    maxAge: LOCALE_COOKIE_MAX_AGE_SECONDS,
    sameSite: 'lax' as const,
    secure,
  };
}

/** `document.cookie` form of the locale cookie. */
export function serializeLocaleCookie(locale: Locale, secure: boolean): string {
  const parts = [`${LOCALE_COOKIE}=${locale}`, 'Path=/', `Max-Age=${LOCALE_COOKIE_MAX_AGE_SECONDS}`, 'SameSite=Lax'];
  if (secure) parts.push('Secure');
  return parts.join('; ');
}
