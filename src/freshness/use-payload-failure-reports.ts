import { useEffect } from 'react';
import { reportTelemetry } from '@/shared/telemetry-client';
import { CURRENT_BUILD_ID } from '@/shared/current-build';

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
    // Buffered: the hook starts after the load event, and a payload may have failed before it.
    observer.observe({ type: 'resource', buffered: true });
  } catch {
    return () => {};
  }
  return () => observer.disconnect();
}

/** Reports each router payload fetch that failed. */
export function usePayloadFailureReports(): void {
  useEffect(() => watchPayloadFailures(), []);
}
