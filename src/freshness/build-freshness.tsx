'use client';

import type { Locale } from '@/shared/locales';
import { useBuildPoller } from './use-build-poller';
import { useChunkRecovery } from './use-chunk-recovery';
import { usePayloadFailureReports } from './use-payload-failure-reports';
import { useRouteManifestPrefetch } from './use-route-manifest-prefetch';

/**
 * Build freshness in the browser: polls builds/latest.json and, once a new
 * build is out, makes the next navigation a full load; fetches this build's
 * route manifest and prefetches the payloads of the prerendered pages this
 * page links to in its locale; reports failed router payloads; recovers from
 * chunks that fail to load.
 */
export function BuildFreshness({ locale }: { locale: Locale }) {
  useChunkRecovery();
  usePayloadFailureReports();
  useBuildPoller();
  useRouteManifestPrefetch(locale);
  return null;
}
