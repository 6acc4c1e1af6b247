'use client';

import { lazy, Suspense } from 'react';
import { useLoadEventFired } from '@/shared/load-event';
import type { Locale } from '@/shared/locales';
import { useChunkRecovery } from './use-chunk-recovery';

/** Code that only acts once the browser is idle: loaded after the load event, outside the first load. */
const AfterLoadFreshness = lazy(() => import('./after-load-freshness'));

/**
 * Build freshness in the browser. From the start: recovers from chunks that
 * fail to load (one may fail while this very page loads, mid-rollout). After
 * the load event: polls builds/latest.json and, once a new build is out,
 * makes the next navigation a full load; fetches this build's route manifest
 * and prefetches the payloads of the prerendered pages this page links to in
 * its locale; reports failed router payloads.
 */
export function BuildFreshness({ locale }: { locale: Locale }) {
  useChunkRecovery();
  const loaded = useLoadEventFired();
  if (!loaded) return null;
  return (
    <Suspense fallback={null}>
      <AfterLoadFreshness locale={locale} />
    </Suspense>
  );
}
