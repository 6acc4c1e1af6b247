'use client';

import { useCallback, type MouseEvent } from 'react';
import { useRouter } from 'next/navigation';
import { serializeLocaleCookie } from '@/shared/locale-cookie';
import { localizedPath, pathWithinLocale, type Locale } from '@/shared/locales';
import { isPlainClick } from '@/ui/navigation/site-link';

/** The same page, query and hash in another locale. */
export function switchedLocation(target: Locale, location: Pick<Location, 'pathname' | 'search' | 'hash'>): string {
  return `${localizedPath(target, pathWithinLocale(location.pathname))}${location.search}${location.hash}`;
}

/**
 * Click handler for a link to another locale: remembers the choice in the
 * cookie and moves to the same page in that locale through the router (which
 * brings the loading feedback, and a full load once a new build is out).
 * Modified clicks (new tab, download) keep the browser's default.
 */
export function useLocaleSwitch() {
  const router = useRouter();
  return useCallback(
    (event: MouseEvent<HTMLAnchorElement>, target: Locale) => {
      if (!isPlainClick(event)) return;
      document.cookie = serializeLocaleCookie(target, window.location.protocol === 'https:');
      event.preventDefault();
      const destination = switchedLocation(target, window.location);
      if (destination === `${window.location.pathname}${window.location.search}${window.location.hash}`) return;
      router.push(destination);
    },
    [router],
  );
}
