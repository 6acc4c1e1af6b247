import { useEffect } from 'react';
import { useRouter } from 'next/navigation';
import type { Locale } from '@/shared/locales';
import { buildManifestPath } from '@/shared/site-paths';
import { reportTelemetry } from '@/shared/telemetry-client';
import { AFTER_IDLE_DELAY_MS, afterIdle } from './after-idle';
import { CURRENT_BUILD_ID } from '@/shared/current-build';
import type { RouteManifest } from './route-manifest';

interface NetworkInformation {
  effectiveType?: string;
  saveData?: boolean;
}

/** Slow-2g or Save-Data: the visitor's data matters more than a head start. */
function connectionIsConstrained(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return connection?.effectiveType === 'slow-2g' || connection?.saveData === true;
}

/** This build's route manifest, or null when it could not be had (reported, never shown). */
async function fetchManifest(): Promise<RouteManifest | null> {
  try {
    const response = await fetch(buildManifestPath(CURRENT_BUILD_ID));
    if (response.ok) return (await response.json()) as RouteManifest;
    reportTelemetry({ type: 'manifest_fetch_failed', kind: 'manifest', buildId: CURRENT_BUILD_ID, status: response.status });
  } catch {
    reportTelemetry({ type: 'manifest_fetch_failed', kind: 'manifest', buildId: CURRENT_BUILD_ID, status: 0 });
  }
  return null;
}

/** The same-origin pages this page links to, other than itself. */
function linkedPaths(): Set<string> {
  return new Set(
    Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]'), (anchor) => new URL(anchor.href, window.location.href))
      .filter((url) => url.origin === window.location.origin && url.pathname !== window.location.pathname)
      .map((url) => url.pathname),
  );
}

/**
 * Once the browser is idle, fetches this build's route manifest and prefetches
 * the payloads of the prerendered pages this page links to in its locale.
 */
export function useRouteManifestPrefetch(locale: Locale): void {
  const router = useRouter();
  useEffect(
    () =>
      afterIdle(AFTER_IDLE_DELAY_MS, () => {
        if (!CURRENT_BUILD_ID || connectionIsConstrained()) return;
        void fetchManifest().then((manifest) => {
          const prerendered = new Set(manifest?.prerendered[locale] ?? []);
          for (const path of linkedPaths()) if (prerendered.has(path)) router.prefetch(path);
        });
      }),
    [locale, router],
  );
}
