'use client';

import type { Locale } from '@/shared/locales';
import { useBuildPoller } from './use-build-poller';
import { usePayloadFailureReports } from './use-payload-failure-reports';
import { useRouteManifestPrefetch } from './use-route-manifest-prefetch';

/**
 * Build freshness once the page has loaded (src/app/[locale]/background-work.tsx): polls
 * builds/latest.json and, once a new build is out, makes the next navigation a full
 * load; fetches this build's route manifest and prefetches the payloads of the
 * prerendered pages this page links to in its locale; reports failed router payloads.
 */
export default function AfterLoadFreshness({ locale }: { locale: Locale }) {
  usePayloadFailureReports();
  useBuildPoller();
  useRouteManifestPrefetch(locale);
  return null;
}
