'use client';

import { Suspense, useEffect, useSyncExternalStore } from 'react';
import { usePathname, useSearchParams } from 'next/navigation';
import { useClientT } from '@/i18n/client-messages';
import { navigationProgress } from './navigation-progress';
import barStyles from './loading-bar.module.css';
import overlayStyles from './loading-overlay.module.css';

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

/**
 * The thin loading bar above the page during client navigations, and the
 * overlay that covers the page while one takes longer than the bar's throttle
 * (never on first load: both start hidden); the end of what drives them, and
 * the new page's fade.
 */
export function NavigationProgress() {
  const t = useClientT('loading');
  const state = useSyncExternalStore(navigationProgress.subscribe, navigationProgress.getSnapshot, navigationProgress.getServerSnapshot);
  const overlayVisible = state.phase === 'progressing';
  return (
    <>
      <Suspense fallback={null}>
        <RouteRenderedTracker />
      </Suspense>
      <div
        className={barStyles.bar}
        data-testid="loading-bar"
        data-phase={state.phase}
        data-visible={state.visible}
        style={{ transform: `scaleX(${state.progress / 100})` }}
        aria-hidden="true"
      />
      <div className={overlayStyles.overlay} data-visible={overlayVisible} data-testid="loading-overlay" aria-hidden={!overlayVisible}>
        <div className={overlayStyles.spinner} />
        <p className={overlayStyles.label} role="status">
          {overlayVisible ? t('overlay') : ''}
        </p>
      </div>
    </>
  );
}
