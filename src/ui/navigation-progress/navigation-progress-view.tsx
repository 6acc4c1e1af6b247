'use client';

import { Suspense, useEffect } from 'react';
import { usePathname, useSearchParams } from 'next/navigation';
import { LoadingBar } from './loading-bar';
import { LoadingOverlay } from './loading-overlay';
import { navigationProgress } from './navigation-progress';

/**
 * Ends the progress once the router renders the new route. It starts in
 * src/instrumentation-client.ts, where the router announces each navigation.
 */
function RouteRenderedTracker() {
  const pathname = usePathname();
  const searchParams = useSearchParams();
  useEffect(() => navigationProgress.routeRendered(), [pathname, searchParams]);
  return null;
}

/** The loading bar and overlay, and the end of what drives them. */
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
