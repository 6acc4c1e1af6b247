import type { Logger } from 'pino';
import type { Metrics } from '@/server/observability/metrics';
import type { PageBuild } from '@/shared/telemetry-events';
import type { PageView } from './page-view-tokens';
import type { ReplayGuard } from './replay-guard';
import { FAILED_PAGE_VIEW, isPageFailure, reportKindOf } from './report-kinds';
import type { ReceivedTelemetryEvent } from './schema';

interface RecordDeps {
  metrics: Metrics;
  logger: Logger;
  /** This server's build: a report is `self` when its token names it, `other` whatever else it names. */
  buildId: string;
  replays: ReplayGuard;
}

function record(event: ReceivedTelemetryEvent, view: PageView, page_build: PageBuild, { metrics, logger }: RecordDeps): void {
  metrics.clientEvents.inc({ event: event.type, page_build });
  switch (event.type) {
    case 'locale_load_failed': {
      const { locale, namespace, cause } = event;
      metrics.localeLoadFailures.inc({ locale, namespace, source: 'client', page_build });
      logger.error({ locale, namespace, cause, source: 'client', page_build }, 'Failed locale loading');
      return;
    }
    case 'manifest_fetch_failed':
    case 'payload_fetch_failed': {
      const kind = event.type === 'manifest_fetch_failed' ? event.kind : 'payload';
      metrics.manifestFetchFailures.inc({ kind, page_build });
      logger.warn({ kind, build_id: event.buildId, status: event.status, page_build }, 'Manifest fetch failed');
      return;
    }
    case 'web_vital': {
      // The page view's locale, as the server that answered it decided.
      const labels = { locale: view.locale, page_build };
      // Browsers report LCP and INP in milliseconds; the histograms are in seconds.
      // FCP and TTFB have no histogram; a page reports its TTFB once per load (Next's
      // useReportWebVitals), which makes it the page view reporting counts against.
      if (event.name === 'LCP') metrics.webVitalLcp.observe(labels, event.value / 1000);
      else if (event.name === 'INP') metrics.webVitalInp.observe(labels, event.value / 1000);
      else if (event.name === 'CLS') metrics.webVitalCls.observe(labels, event.value);
      else if (event.name === 'TTFB') metrics.pageViews.inc({ page_build });
      return;
    }
    default: {
      const { type, ...fields } = event;
      logger.debug({ event: type, ...fields }, 'Client event');
    }
  }
}

/**
 * Counts the events of a page view not reported before (on this pod), each other one as a
 * refused replay, and the page view as failed at its first failure. Returns how many were counted.
 */
export function recordOnce(events: readonly ReceivedTelemetryEvent[], view: PageView, deps: RecordDeps): number {
  const page_build: PageBuild = view.build === deps.buildId ? 'self' : 'other';
  let counted = 0;
  for (const event of events) {
    if (!deps.replays.firstReport(view.id, reportKindOf(event), view.expiresAt)) {
      deps.metrics.telemetryRejected.inc({ reason: 'replay' });
      continue;
    }
    counted += 1;
    record(event, view, page_build, deps);
    if (isPageFailure(event) && deps.replays.firstReport(view.id, FAILED_PAGE_VIEW, view.expiresAt)) {
      deps.metrics.failedPageViews.inc({ page_build });
    }
  }
  return counted;
}
