'use client';

import { lazy, Suspense } from 'react';
import { useChunkRecovery } from '@/freshness/use-chunk-recovery';
import { useLoadEventFired } from '@/shared/load-event';
import type { Locale } from '@/shared/locales';

/**
 * What needs the page only once it has loaded, fetched after the load event,
 * outside the first load: web-vitals' reporting (its observers read the entries
 * the browser buffered, so this page view's LCP, CLS and INP are still
 * reported: tests/e2e/web-vitals.spec.ts), and build freshness's poller, route
 * manifest prefetch and payload reports (they act once the browser is idle).
 */
const AfterLoad = lazy(async () => {
  const [{ default: VitalsReport }, { default: AfterLoadFreshness }] = await Promise.all([
    import('@/ui/web-vitals/vitals-report'),
    import('@/freshness/after-load-freshness'),
  ]);
  return {
    default: ({ locale }: { locale: Locale }) => (
      <>
        <VitalsReport locale={locale} />
        <AfterLoadFreshness locale={locale} />
      </>
    ),
  };
});

/**
 * The page's work in the background, in one place: chunk recovery from the
 * first load on (a chunk may fail while this very page loads, mid-rollout),
 * the rest once the page has loaded.
 */
export function BackgroundWork({ locale }: { locale: Locale }) {
  useChunkRecovery();
  const loaded = useLoadEventFired();
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <AfterLoad locale={locale} />
    </Suspense>
  );
}
