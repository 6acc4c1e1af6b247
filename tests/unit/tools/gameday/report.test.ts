import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, test } from 'vitest';
import { noise, REPORT_HEADER, reportRows, timelineSvg, writeReport } from '../../../../tools/gameday/report.mjs';
import type { FaultResult, GamedayResult } from '../../../../tools/gameday/run.mjs';

const T0 = Date.UTC(2026, 10, 25, 20, 0, 0);
const fault = (overrides: Partial<FaultResult>): FaultResult => ({
  id: 'locale',
  title: 'a locale file that does not parse',
  alert: 'MeridianServerLocaleLoadFailure',
  release: 'locale',
  job: 'locale-meridian-metrics',
  expected: { firing: ['MeridianServerLocaleLoadFailure'], notified: ['MeridianServerLocaleLoadFailure'] },
  firing: ['MeridianServerLocaleLoadFailure'],
  notified: ['MeridianServerLocaleLoadFailure'],
  inhibited: [],
  injectedAt: T0,
  firedAt: T0 + 12_000,
  notifiedAt: T0 + 18_000,
  removedAt: T0 + 40_000,
  resolvedAt: T0 + 95_000,
  notification: { receiver: 'meridian-warning', labels: {}, annotations: {} },
  steps: [{ kind: 'sh', text: 'kubectl logs', output: '', exitCode: 0 }],
  evidence: [{ pattern: '/ja/', found: true }],
  panel: { row: 'i18n', title: 'Locale load failures', expressions: [], shows: true },
  ...overrides,
});
const result: GamedayResult = {
  namespace: 'meridian-gameday',
  startedAt: T0 - 60_000,
  faultsAt: T0,
  endedAt: T0 + 120_000,
  faults: [
    fault({}),
    fault({
      id: 'cpu',
      alert: 'MeridianLatencyP99High',
      firing: ['MeridianDown'],
      firedAt: undefined,
      notifiedAt: undefined,
      resolvedAt: undefined,
      error: 'waited 240000 ms',
    }),
  ],
  healthy: { release: 'healthy', job: 'healthy-meridian-metrics', firing: [], notified: [] },
  unrouted: 0,
  tracing: null,
};

describe('the game day report', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'meridian-gameday-report-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('a row per fault: alert, fired after injection, notified (and where), resolved after removal, outcome', () => {
    const [locale, cpu] = reportRows(result);
    expect(locale).toHaveLength(REPORT_HEADER.length);
    expect(locale).toEqual([
      'locale',
      'MeridianServerLocaleLoadFailure',
      '12 s',
      '18 s (meridian-warning)',
      '55 s',
      '1 steps; panel shows it',
      'ok',
    ]);
    expect(cpu?.slice(2, 5)).toEqual(['—', 'no', '—']);
    expect(cpu?.[6]).toBe('waited 240000 ms');
  });

  test('noise is what fired or was notified beyond the fault’s own alerts', () => {
    expect(noise(fault({ firing: ['MeridianServerLocaleLoadFailure', 'MeridianDown'] }))).toEqual(['MeridianDown']);
    expect(noise(fault({}))).toEqual([]);
  });

  test('the timeline is an SVG with a lane per fault and its marks, text escaped', () => {
    const svg = timelineSvg({ ...result, namespace: 'a<b' });
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www.w3.org\/2000\/svg"/);
    expect(svg).toContain('locale → MeridianServerLocaleLoadFailure');
    expect(svg).toContain('cpu → MeridianLatencyP99High');
    expect(svg).toContain('<title>fired after 12 s</title>');
    expect(svg).toContain('a&lt;b');
  });

  test('writes the table and the timeline side by side', () => {
    const { table, timeline } = writeReport(result, dir);
    expect(readFileSync(table, 'utf8')).toContain('MeridianServerLocaleLoadFailure');
    expect(readFileSync(timeline, 'utf8')).toContain('</svg>');
    expect(path.dirname(timeline)).toBe(dir);
  });
});
