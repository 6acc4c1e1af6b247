import type { ComponentProps } from 'react';

/** Marks a link within the site, which RouterLinks hands to the router. */
export const ROUTER_LINK_ATTRIBUTE = 'data-router-link';
/** Marks a link to the same page in another locale (its value), which RouterLinks follows as a language switch. */
export const LOCALE_LINK_ATTRIBUTE = 'data-locale-link';

/**
 * A link within the site: a real `<a>`, so it works before hydration and for new tabs,
 * followed by the router once the page has hydrated (RouterLinks), with no code of its
 * own. Not next/link: every link of the site leads to a section of a locale's home page,
 * which the route manifest already prefetches (src/freshness), so next/link's
 * prefetching and its 3.5 KiB br before the load event bought nothing
 * (docs/performance.md).
 */
export function SiteLink({ href, ...props }: Omit<ComponentProps<'a'>, 'onClick'> & { href: string }) {
  return <a {...props} href={href} {...{ [ROUTER_LINK_ATTRIBUTE]: '' }} />;
}
