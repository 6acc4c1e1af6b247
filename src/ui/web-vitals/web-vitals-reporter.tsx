'use client';

import { lazy, Suspense } from 'react';
import { useLoadEventFired } from '@/shared/load-event';
import type { Locale } from '@/shared/locales';

/**
 * web-vitals (about 3 KiB br) arrives after the load event, outside the first
 * load. Its observers read the browser's buffered entries, so this page
 * view's LCP, CLS and INP are still reported (tests/e2e/web-vitals.spec.ts).
 */
const VitalsReport = lazy(() => import('./vitals-report'));

/** Sends this visitor's Core Web Vitals to /api/telemetry, by locale and page. */
export function WebVitalsReporter({ locale }: { locale: Locale }) {
  const loaded = useLoadEventFired();
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <VitalsReport locale={locale} />
    </Suspense>
  );
}
