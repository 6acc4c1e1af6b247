'use client';

import { useLayoutEffect } from 'react';
import { useRouter } from 'next/navigation';
import { isLocale } from '@/shared/locales';
import { followLocaleSwitch } from './locale-switch';
import { isPlainClick } from './plain-click';
import { ROUTER_LINKS_AREA_SELECTOR } from './router-links-area';

/**
 * Follows the server-rendered links of the areas marked ROUTER_LINKS_AREA through the
 * router, from one listener on the document, so that no link needs code of its own to
 * hydrate: a link with an `hreflang` switches the language as the switcher does, any other
 * is pushed as it is. A link stays a real `<a>`, which works before hydration and in a new
 * tab. Installed while the page hydrates (a layout effect), so a click right after
 * hydration is already the router's; React's own listener on the document comes first, so
 * a click a Client Component has handled (the switcher's menu) is left alone. Renders
 * nothing. Not next/link: every link of the site leads to a section of a locale's home
 * page, which the route manifest already prefetches (src/freshness), so next/link's
 * prefetching and its 3.5 KiB br before the load event bought nothing (docs/performance.md).
 */
export function RouterLinks() {
  const router = useRouter();
  useLayoutEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (event.defaultPrevented || !(event.target instanceof Element)) return;
      const link = event.target.closest('a[href]');
      if (!(link instanceof HTMLAnchorElement) || !link.closest(ROUTER_LINKS_AREA_SELECTOR) || !isPlainClick(event, link)) return;
      // Another site's address is the browser's to follow.
      if (link.origin !== window.location.origin) return;
      event.preventDefault();
      const locale = link.getAttribute('hreflang');
      if (isLocale(locale)) followLocaleSwitch(router, locale);
      else router.push(`${link.pathname}${link.search}${link.hash}`);
    };
    document.addEventListener('click', onClick);
    return () => document.removeEventListener('click', onClick);
  }, [router]);
  return null;
}
