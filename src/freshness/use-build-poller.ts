import { useEffect } from 'react';
import { DEFAULT_BUILD_POLL_INTERVAL_MS, POLL_INTERVAL_HEADER } from '@/shared/build-poll';
import { LATEST_BUILD_PATH } from '@/shared/site-paths';
import { PAGE_VIEW_TOKEN_HEADER } from '@/shared/page-view-token';
import { flushTelemetry, pageViewToken, renewPageViewToken, reportTelemetry } from '@/shared/telemetry-client';
import { AFTER_IDLE_DELAY_MS, afterIdle } from './after-idle';
import { startBuildPoller, parseLatestBuild, PollError } from './build-poller';
import { CURRENT_BUILD_ID } from '@/shared/current-build';
import { loadNavigationsInFull } from './full-load-navigation';

/** One poll, which also has the page's token renewed, so a tab left open keeps reporting. */
async function fetchLatest() {
  const token = pageViewToken();
  let response: Response;
  try {
    response = await fetch(`${LATEST_BUILD_PATH}?${Date.now()}`, {
      cache: 'no-store',
      headers: token === undefined ? undefined : { [PAGE_VIEW_TOKEN_HEADER]: token },
    });
  } catch {
    throw new PollError(0);
  }
  const renewed = response.headers.get(PAGE_VIEW_TOKEN_HEADER);
  if (renewed) renewPageViewToken(renewed);
  if (!response.ok) throw new PollError(response.status);
  const body: unknown = await response.json().catch(() => null);
  return parseLatestBuild(body, response.headers.get(POLL_INTERVAL_HEADER));
}

/**
 * Polls builds/latest.json once the browser is idle and, once a new build is
 * out, makes the next navigation a full load.
 */
export function useBuildPoller(): void {
  useEffect(() => {
    let stopPoller = () => {};
    const cancelIdle = afterIdle(AFTER_IDLE_DELAY_MS, () => {
      // A page without its build id (a build made without next.config.js) cannot tell builds apart.
      if (!CURRENT_BUILD_ID) return;
      stopPoller = startBuildPoller({
        currentId: CURRENT_BUILD_ID,
        defaultIntervalMs: DEFAULT_BUILD_POLL_INTERVAL_MS,
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
          loadNavigationsInFull();
          reportTelemetry({ type: 'build_update_detected', from: CURRENT_BUILD_ID, to: id });
          // Rollouts are watched as they happen: this one is not held back for a batch.
          flushTelemetry();
        },
        onPollFailed: ({ status }) => reportTelemetry({ type: 'manifest_fetch_failed', kind: 'latest', buildId: CURRENT_BUILD_ID, status }),
      }).stop;
    });
    return () => {
      cancelIdle();
      stopPoller();
    };
  }, []);
}
