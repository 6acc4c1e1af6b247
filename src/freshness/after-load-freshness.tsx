'use client';

import type { Locale } from '@/shared/locales';
import { useBuildPoller } from './use-build-poller';
import { usePayloadFailureReports } from './use-payload-failure-reports';
import { useRouteManifestPrefetch } from './use-route-manifest-prefetch';

/** What build freshness does once the page has loaded (see build-freshness.tsx). */
export default function AfterLoadFreshness({ locale }: { locale: Locale }) {
  usePayloadFailureReports();
  useBuildPoller();
  useRouteManifestPrefetch(locale);
  return null;
}
