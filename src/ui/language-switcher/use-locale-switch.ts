'use client';

import { useCallback, type MouseEvent } from 'react';
import { useRouter } from 'next/navigation';
import type { Locale } from '@/shared/locales';
import { followLocaleSwitch } from '@/ui/navigation/locale-switch';
import { isPlainClick } from '@/ui/navigation/plain-click';

/**
 * Click handler for a link to another locale in a Client Component (the switcher's
 * menu); the server-rendered language links are followed by RouterLinks. Modified
 * clicks (new tab, download) keep the browser's default.
 */
export function useLocaleSwitch() {
  const router = useRouter();
  return useCallback(
    (event: MouseEvent<HTMLAnchorElement>, target: Locale) => {
      if (!isPlainClick(event, event.currentTarget)) return;
      event.preventDefault();
      followLocaleSwitch(router, target);
    },
    [router],
  );
}
