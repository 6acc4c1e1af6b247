'use client';

import { useEffect } from 'react';
import { useRouter } from 'next/navigation';
import type { Locale } from '@/shared/locales';
import { flushTelemetry, reportTelemetry } from '@/shared/telemetry-client';
import { startBuildPoller, parseLatestBuild, PollError } from './build-poller';
import { installChunkErrorListeners } from './chunk-recovery';
import { installFullLoadNavigation } from './full-load-navigation';
import type { RouteManifest } from './route-manifest';

/** Set at build time by next.config.js: the id of the build this page belongs to. */
const CURRENT_BUILD_ID = process.env.NEXT_PUBLIC_BUILD_ID ?? '';
const DEFAULT_POLL_INTERVAL_MS = 60_000;
/** The manifest, the first poll and the payload prefetches wait this long after the browser is idle. */
const AFTER_IDLE_DELAY_MS = 1000;

interface NetworkInformation {
  effectiveType?: string;
  saveData?: boolean;
}

/** Slow-2g or Save-Data: the visitor's data matters more than a head start. */
function connectionIsConstrained(): boolean {
  const connection = (navigator as Navigator & { connection?: NetworkInformation }).connection;
  return connection?.effectiveType === 'slow-2g' || connection?.saveData === true;
}

function afterIdle(delayMs: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = window.requestIdleCallback
    ? window.requestIdleCallback(() => (timer = setTimeout(run, delayMs)))
    : undefined;
  if (idle === undefined) timer = setTimeout(run, delayMs);
  return () => {
    if (idle !== undefined) window.cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}

async function fetchLatest() {
  let response: Response;
  try {
    response = await fetch(`/builds/latest.json?${Date.now()}`, { cache: 'no-store' });
  } catch {
    throw new PollError(0);
  }
  if (!response.ok) throw new PollError(response.status);
  const body: unknown = await response.json().catch(() => null);
  return parseLatestBuild(body, response.headers.get('x-build-poll-interval-ms'));
}

/** This build's route manifest, or null when it could not be had (reported, never shown). */
async function fetchManifest(): Promise<RouteManifest | null> {
  try {
    const response = await fetch(`/builds/meta/${encodeURIComponent(CURRENT_BUILD_ID)}.json`);
    if (response.ok) return (await response.json()) as RouteManifest;
    reportTelemetry({ type: 'manifest_fetch_failed', kind: 'manifest', buildId: CURRENT_BUILD_ID, status: response.status });
  } catch {
    reportTelemetry({ type: 'manifest_fetch_failed', kind: 'manifest', buildId: CURRENT_BUILD_ID, status: 0 });
  }
  return null;
}

/** Router payload fetches (`?_rsc=`) that failed, as the browser's resource timing saw them. */
function watchPayloadFailures(): () => void {
  if (typeof PerformanceObserver === 'undefined') return () => {};
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceResourceTiming & { responseStatus?: number })[]) {
      const url = new URL(entry.name, window.location.href);
      const status = entry.responseStatus ?? 0;
      if (!url.searchParams.has('_rsc') || status < 400) continue;
      reportTelemetry({ type: 'payload_fetch_failed', buildId: CURRENT_BUILD_ID, status, path: url.pathname });
    }
  });
  try {
    observer.observe({ type: 'resource', buffered: false });
  } catch {
    return () => {};
  }
  return () => observer.disconnect();
}

/**
 * Build freshness in the browser: polls builds/latest.json and, once a new
 * build is out, makes the next navigation a full load; fetches this build's
 * route manifest and prefetches the payloads of the prerendered pages this
 * page links to in its locale; recovers from chunks that fail to load.
 */
export function BuildFreshness({ locale }: { locale: Locale }) {
  const router = useRouter();

  useEffect(() => installChunkErrorListeners(), []);

  useEffect(() => {
    let stopPoller = () => {};
    let stopNavigation = () => {};
    const stopPayloadWatch = watchPayloadFailures();
    const cancelIdle = afterIdle(AFTER_IDLE_DELAY_MS, () => {
      // A page without its build id (a build made without next.config.js) cannot tell builds apart.
      if (!CURRENT_BUILD_ID) return;
      stopPoller = startBuildPoller({
        currentId: CURRENT_BUILD_ID,
        defaultIntervalMs: DEFAULT_POLL_INTERVAL_MS,
        firstCheckDelayMs: 0,
        deps: {
          fetchLatest,
          isHidden: () => document.visibilityState === 'hidden',
          onVisibilityChange: (listener) => {
            document.addEventListener('visibilitychange', listener);
            return () => document.removeEventListener('visibilitychange', listener);
          },
          random: Math.random,
          now: Date.now,
          setTimeout: (run, ms) => window.setTimeout(run, ms),
          clearTimeout: (handle) => window.clearTimeout(handle as number),
        },
        onNewBuild: (id) => {
          stopNavigation = installFullLoadNavigation();
          reportTelemetry({ type: 'build_update_detected', from: CURRENT_BUILD_ID, to: id });
          // Rollouts are watched as they happen: this one is not held back for a batch.
          flushTelemetry();
        },
        onPollFailed: ({ status }) =>
          reportTelemetry({ type: 'manifest_fetch_failed', kind: 'latest', buildId: CURRENT_BUILD_ID, status }),
      }).stop;
      if (connectionIsConstrained()) return;
      void fetchManifest().then((manifest) => {
        const prerendered = new Set(manifest?.prerendered[locale] ?? []);
        const linked = new Set(
          Array.from(document.querySelectorAll<HTMLAnchorElement>('a[href]'), (anchor) => new URL(anchor.href, window.location.href))
            .filter((url) => url.origin === window.location.origin && url.pathname !== window.location.pathname)
            .map((url) => url.pathname),
        );
        for (const path of linked) if (prerendered.has(path)) router.prefetch(path);
      });
    });
    return () => {
      cancelIdle();
      stopPoller();
      stopNavigation();
      stopPayloadWatch();
    };
  }, [locale, router]);

  return null;
}
