import { serializeLocaleCookie } from '@/shared/locale-cookie';
import { localizedPath, pathWithinLocale, type Locale } from '@/shared/locales';

/** The same page, query and hash in another locale. */
export function switchedLocation(target: Locale, location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return `${localizedPath(target, pathWithinLocale(location.pathname))}${location.search}${location.hash}`;
}

/**
 * Remembers `target` in the cookie and moves to the same page in that locale through
 * the router (which brings the loading feedback, and a full load once a new build is out).
 */
export function followLocaleSwitch(router: { push: (href: string) => void }, target: Locale): void {
  document.cookie = serializeLocaleCookie(target, window.location.protocol === 'https:');
  const destination = switchedLocation(target, window.location);
  if (destination === `${window.location.pathname}${window.location.search}${window.location.hash}`) return;
  router.push(destination);
}
