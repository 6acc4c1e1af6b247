'use client';

import { lazy, Suspense, useEffect, useState } from 'react';
import type { Locale } from '@/shared/locales';

const WebVitalsRuntime = lazy(() => import('./web-vitals-runtime'));

/**
 * Reports Core Web Vitals. The measuring code (about 4 KiB) is no part of the first
 * load: it is fetched once the page has loaded and the browser is idle. Its observers
 * are buffered, so the paints and shifts before it arrived are still reported.
 */
export function WebVitalsReporter({ locale }: { locale: Locale }) {
  const [wanted, setWanted] = useState(false);
  useEffect(() => {
    let idle: number | undefined;
    const start = () => {
      idle = requestIdleCallback(() => setWanted(true));
    };
    if (document.readyState === 'complete') start();
    else window.addEventListener('load', start, { once: true });
    return () => {
      window.removeEventListener('load', start);
      if (idle !== undefined) cancelIdleCallback(idle);
    };
  }, []);
  return wanted ? (
    <Suspense fallback={null}>
      <WebVitalsRuntime locale={locale} />
    </Suspense>
  ) : null;
}
