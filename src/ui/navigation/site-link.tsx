'use client';

import { useRouter } from 'next/navigation';
import type { ComponentProps, MouseEvent } from 'react';

/**
 * A click the page may take over: the main button, no modifier key (new tab or
 * window, download), on a link that opens in this tab.
 */
export function isPlainClick(event: MouseEvent<HTMLAnchorElement>): boolean {
  const { button, metaKey, ctrlKey, shiftKey, altKey, currentTarget } = event;
  return button === 0 && !metaKey && !ctrlKey && !shiftKey && !altKey && (!currentTarget.target || currentTarget.target === '_self');
}

/**
 * A link within the site, followed by the router: a real `<a>`, so it works
 * before hydration and for new tabs, and a client navigation once hydrated.
 * Not next/link: every link of the site leads to a section of a locale's home
 * page, which the route manifest already prefetches (src/freshness), so
 * next/link's prefetching and its 3.5 KiB br before the load event bought
 * nothing (docs/performance.md).
 */
export function SiteLink({ href, ...props }: Omit<ComponentProps<'a'>, 'onClick'> & { href: string }) {
  const router = useRouter();
  return (
    <a
      {...props}
      href={href}
      onClick={(event) => {
        if (!isPlainClick(event)) return;
        event.preventDefault();
        router.push(href);
      }}
    />
  );
}
