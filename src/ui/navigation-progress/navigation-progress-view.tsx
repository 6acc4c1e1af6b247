'use client';

import { Suspense, useEffect } from 'react';
import { usePathname, useSearchParams } from 'next/navigation';
import { LoadingBar } from './loading-bar';
import { LoadingOverlay } from './loading-overlay';
import { navigationProgress } from './navigation-progress';

/** The page a client navigation brings fades in (about 100 ms); the first page paints at once. */
function fadeInPage(): void {
  if (window.matchMedia('(prefers-reduced-motion: reduce)').matches) return;
  document.getElementById('main')?.animate([{ opacity: 0, transform: 'translateY(4px)' }, {}], { duration: 100, easing: 'ease-out' });
}

/**
 * Ends the progress once the router renders the new route, and fades that
 * route in. It starts in src/instrumentation-client.ts, where the router
 * announces each navigation.
 */
function RouteRenderedTracker() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  useEffect(() => {
    if (navigationProgress.routeRendered()) fadeInPage();
  }, [pathname, searchParams]);
  return null;
}

/** The loading bar and overlay, the end of what drives them, and the new page's fade. */
export function NavigationProgress() {
  return (
    <>
      <Suspense fallback={null}>
        <RouteRenderedTracker />
      </Suspense>
      <LoadingBar />
      <LoadingOverlay />
    </>
  );
}
