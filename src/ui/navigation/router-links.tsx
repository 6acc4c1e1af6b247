'use client';

import { useLayoutEffect } from 'react';
import { useRouter } from 'next/navigation';
import { isLocale } from '@/shared/locales';
import { followLocaleSwitch } from '@/ui/language-switcher/use-locale-switch';
import { isPlainClick } from './plain-click';
import { LOCALE_LINK_ATTRIBUTE, ROUTER_LINK_ATTRIBUTE } from './site-link';

/**
 * Follows the server-rendered links through the router, from one listener on the
 * document, so that no link needs code of its own to hydrate: a site link
 * (SiteLink) is pushed as it is, a language link (LanguageLinks) switches the
 * language as the switcher does. Installed while the page hydrates (a layout
 * effect), so a click right after hydration is already the router's. Renders nothing.
 */
export function RouterLinks() {
  const router = useRouter();
  useLayoutEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || !(event.target instanceof Element)) return;
      const link = event.target.closest('a[href]');
      if (!(link instanceof HTMLAnchorElement) || !isPlainClick(event, link)) return;
      const locale = link.getAttribute(LOCALE_LINK_ATTRIBUTE);
      if (isLocale(locale)) {
        event.preventDefault();
        followLocaleSwitch(router, locale);
      } else if (link.hasAttribute(ROUTER_LINK_ATTRIBUTE)) {
        event.preventDefault();
        router.push(link.getAttribute('href') ?? '/');
      }
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [router]);
  return null;
}
