'use client';

import { useReportWebVitals } from 'next/web-vitals';
import type { Locale } from '@/shared/locales';
import { reportTelemetry } from '@/shared/telemetry-client';

const REPORTED = new Set(['LCP', 'INP', 'CLS', 'FCP', 'TTFB']);

/** Sends this visitor's Core Web Vitals to /api/telemetry, by locale and page. */
export default function VitalsReport({ locale }: { locale: Locale }) {
  useReportWebVitals((metric) => {
    if (!REPORTED.has(metric.name)) return;
    reportTelemetry({
      type: 'web_vital',
      name: metric.name as 'LCP' | 'INP' | 'CLS' | 'FCP' | 'TTFB',
      value: metric.value,
      locale,
      route: window.location.pathname,
      id: metric.id,
    });
  });
  return null;
}
