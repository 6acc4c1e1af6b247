import { describe, expect, it } from 'vitest';
import { NAMESPACES } from '@/i18n/namespaces';
import { LOCALES } from '@/shared/locales';
import { createMetrics, FETCH_FAILURE_KINDS } from '@/server/observability/metrics';
import { PAGE_BUILDS, TELEMETRY_EVENT_TYPES } from '@/shared/telemetry-events';

const BUILD = { buildId: 'b1', version: '0.1.0', revision: 'abc', builtAt: 0 };

describe('createMetrics', () => {
  it('starts every failure, event and Web Vital series at 0, so the first one shows as an increase', async () => {
    const { registry } = createMetrics(BUILD);
    const text = await registry.metrics();
    for (const page_build of PAGE_BUILDS) {
      for (const event of TELEMETRY_EVENT_TYPES) {
        expect(text).toContain(`meridian_client_events_total{event="${event}",page_build="${page_build}"} 0`);
      }
      for (const kind of FETCH_FAILURE_KINDS) {
        expect(text).toContain(`meridian_manifest_fetch_failures_total{kind="${kind}",page_build="${page_build}"} 0`);
      }
      expect(text).toContain(`meridian_client_page_views_total{page_build="${page_build}"} 0`);
    }
    const localeSeries = text.split('\n').filter((line) => line.startsWith('meridian_locale_load_failures_total{'));
    // The server's own failures (page_build self), and browsers' of either build.
    expect(localeSeries).toHaveLength(LOCALES.length * NAMESPACES.length * 3);
    expect(localeSeries.every((line) => line.endsWith(' 0'))).toBe(true);
    // Each Web Vital's histogram too, per locale and page build.
    for (const vital of ['meridian_web_vitals_lcp_seconds', 'meridian_web_vitals_inp_seconds', 'meridian_web_vitals_cls']) {
      const counts = text.split('\n').filter((line) => line.startsWith(`${vital}_count{`));
      expect(counts.sort()).toEqual(
        PAGE_BUILDS.flatMap((page_build) =>
          LOCALES.map((locale) => `${vital}_count{locale="${locale}",page_build="${page_build}"} 0`),
        ).sort(),
      );
    }
  });
});
