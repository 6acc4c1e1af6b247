'use client';

import { lazy, Suspense } from 'react';
import { useChunkRecovery } from '@/freshness/use-chunk-recovery';
import { usePageSettled } from '@/shared/page-settled';
import type { Locale } from '@/shared/locales';

/** Background work's code arrives this long after the page has loaded and the browser has been idle. */
const AFTER_LOAD_DELAY_MS = 500;

/**
 * What needs the page only once it is in use, fetched once it has settled after its load
 * event, outside the first load and the work around it: web-vitals' reporting (its
 * observers read the entries the browser buffered, so this page view's LCP, CLS and INP
 * are still reported: tests/e2e/web-vitals.spec.ts), and build freshness's poller, route
 * manifest prefetch and payload reports (which themselves act once the browser is idle).
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
 * the rest once the page has loaded and settled.
 */
export function BackgroundWork({ locale }: { locale: Locale }) {
  useChunkRecovery();
  const settled = usePageSettled(AFTER_LOAD_DELAY_MS);
  if (!settled) return null;
  return (
    <Suspense fallback={null}>
      <AfterLoad locale={locale} />
    </Suspense>
  );
}
