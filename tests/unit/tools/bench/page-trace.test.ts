import { describe, expect, it } from 'vitest';
import { readPageTrace } from '../../../../tools/bench/page-trace.mjs';

const MAIN = { pid: 1, tid: 7 };
const navigation = (ts: number, url = 'http://127.0.0.1:3000/ja') => ({
  name: 'navigationStart',
  ph: 'R',
  ts,
  ...MAIN,
  args: { frame: 'F1', data: { isLoadingMainFrame: true, documentLoaderURL: url } },
});
const work = (name: string, ts: number, dur: number, tdur: number, thread = MAIN) => ({ name, ph: 'X', ts, dur, tdur, ...thread });
const lcp = (ts: number, type = 'image', frame = 'F1') => ({
  name: 'largestContentfulPaint::Candidate',
  ph: 'R',
  ts,
  ...MAIN,
  args: { frame, data: { type } },
});

describe('readPageTrace', () => {
  it('counts each kind of work before the largest paint without what is nested in it, in thread time, font look-ups apart', () => {
    const result = readPageTrace([
      navigation(1_000),
      // The parser, with a layout it forces and a script it runs nested in it.
      work('ParseHTML', 2_000, 5_000, 4_000),
      work('Layout', 3_000, 1_000, 900),
      work('EvaluateScript', 4_500, 1_000, 1_000),
      work('UpdateLayoutTree', 8_000, 500, 400),
      // A layout, with the font look-ups it makes nested in it.
      work('Layout', 8_600, 1_000, 800),
      work('FontCache::GetFontPlatformData', 8_700, 300, 150),
      work('FontCache::GetFontPlatformData', 8_750, 200, 50),
      work('FontCache::FallbackFontForCharacter', 9_100, 100, 100),
      work('Paint', 9_700, 300, 300),
      lcp(10_500, 'text'),
      lcp(12_000),
      // After the largest paint, on another thread, or in another frame: not counted.
      work('Layout', 13_000, 5_000, 5_000),
      work('ParseHTML', 2_000, 5_000, 5_000, { pid: 1, tid: 9 }),
      lcp(20_000, 'image', 'F2'),
    ]);
    expect(result).toEqual({
      lcpMs: 11,
      lcpType: 'image',
      parseMs: 2.1,
      styleMs: 0.4,
      layoutMs: 1.4,
      fontMs: 0.3,
      fontLookups: 3,
      fontWallMs: 0.4,
      scriptMs: 1,
      paintMs: 0.3,
      firstPaintWorkMs: 4.2,
    });
  });

  it('reads the page, not the about:blank the tab opened with', () => {
    const result = readPageTrace([navigation(0, 'about:blank'), navigation(1_000), work('ParseHTML', 1_500, 1_000, 500), lcp(3_000)]);
    expect(result.lcpMs).toBe(2);
    expect(result.parseMs).toBe(0.5);
  });

  it('uses wall time for an event that has no thread time', () => {
    expect(readPageTrace([navigation(1_000), { name: 'Layout', ph: 'X', ts: 1_100, dur: 700, ...MAIN }, lcp(2_000)]).layoutMs).toBe(0.7);
  });

  it('says what is missing', () => {
    expect(() => readPageTrace([lcp(5)])).toThrow(/no navigationStart/);
    expect(() => readPageTrace([navigation(1)])).toThrow(/no largest contentful paint/);
  });
});
