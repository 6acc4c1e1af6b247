'use client';

import { Suspense, useEffect, useRef } from 'react';
import { usePathname, useSearchParams } from 'next/navigation';
import { LoadingBar } from '@/ui/loading-bar/loading-bar';
import { LoadingOverlay } from '@/ui/overlay/loading-overlay';
import { navigationProgress } from './navigation-progress';

function routeKey(url: URL | Location): string {
  return `${url.pathname}${url.search}`;
}

/** A click the App Router turned into a client navigation to another route. */
function isClientNavigation(event: MouseEvent): boolean {
  if (!event.defaultPrevented || !(event.target instanceof Element)) return false;
  const anchor = event.target.closest('a[href]');
  if (!(anchor instanceof HTMLAnchorElement)) return false;
  const target = new URL(anchor.href, window.location.href);
  return target.origin === window.location.origin && routeKey(target) !== routeKey(window.location);
}

/** Starts the progress on link clicks and history moves; finishes it when the route changes. */
function NavigationTracker() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  const currentRoute = useRef('');

  useEffect(() => {
    currentRoute.current = routeKey(window.location);
    navigationProgress.finish();
  }, [pathname, searchParams]);

  useEffect(() => {
    const onClick = (event: MouseEvent) => {
      if (isClientNavigation(event)) navigationProgress.start();
    };
    const onPopState = () => {
      if (routeKey(window.location) !== currentRoute.current) navigationProgress.start();
    };
    window.addEventListener('click', onClick);
    window.addEventListener('popstate', onPopState);
    return () => {
      window.removeEventListener('click', onClick);
      window.removeEventListener('popstate', onPopState);
    };
  }, []);

  return null;
}

/** The loading bar and overlay, with what drives them. */
export function NavigationFeedback() {
  return (
    <>
      <Suspense fallback={null}>
        <NavigationTracker />
      </Suspense>
      <LoadingBar />
      <LoadingOverlay />
    </>
  );
}
