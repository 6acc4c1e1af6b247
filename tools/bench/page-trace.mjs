// What a page's main thread does before its largest paint, read from a Chromium
// performance trace of one unthrottled load: the HTML parser, style, layout, font look-ups
// and scripts, each as thread time (CPU time on that thread, so other work on a shared machine slows
// it less than it slows the clock), and the observed LCP.
import { CHROMIUM_FLAGS, CHROMIUM_PATH, heading, log, median, round } from './util.mjs';

/** The targets: the document's own work before its largest paint, and that paint over the floor's (ms). */
export const TRACE_TARGETS = { firstPaintWorkMs: 25, lcpOverFloorMs: 30 };
/** How long a load may take to show its largest paint after its load event before its trace is read anyway. */
const LCP_WAIT_MS = 10_000;
const CATEGORIES = ['devtools.timeline', 'disabled-by-default-devtools.timeline', 'loading', 'blink.user_timing', 'fonts'].join(',');

/** The trace events each kind of main-thread work is recorded as. */
const WORK = {
  parse: ['ParseHTML'],
  style: ['UpdateLayoutTree', 'RecalculateStyles'],
  layout: ['Layout'],
  /** Finding the font for a family, size and weight, or for a character no listed font has: mostly waiting on the browser's font service (fontWallMs). */
  fonts: ['FontCache::GetFontPlatformData', 'FontCache::FallbackFontForCharacter'],
  script: ['EvaluateScript', 'FunctionCall', 'v8.compile', 'v8.compileModule', 'v8.evaluateModule'],
  paint: ['PrePaint', 'Paint', 'PaintImage'],
};

/**
 * @typedef {{ name: string, ph?: string, ts: number, dur?: number, tdur?: number, pid?: number, tid?: number,
 *   args?: { frame?: string, data?: { isLoadingMainFrame?: boolean, documentLoaderURL?: string, type?: string } } }} TraceEvent
 */

/**
 * The main-thread work before the largest contentful paint of the page the trace loaded,
 * in ms of thread time, each event counted without the events nested in it (a layout the
 * parser forces is layout, not parsing; the font look-ups a layout makes are font
 * look-ups), how many font look-ups it made, and when that paint happened (ms of wall time
 * after the navigation started).
 * @param {TraceEvent[]} events
 */
export function readPageTrace(events) {
  const navigation = events.find(
    (e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame && /^https?:/.test(e.args.data.documentLoaderURL ?? ''),
  );
  if (!navigation) throw new Error('page-trace: no navigationStart of an http(s) page in the main frame');
  const frame = navigation.args?.frame;
  const lcp = events.filter((e) => e.name === 'largestContentfulPaint::Candidate' && e.args?.frame === frame).at(-1);
  if (!lcp) throw new Error('page-trace: the trace has no largest contentful paint of that page');

  const mainThread = events
    .filter((e) => e.ph === 'X' && e.pid === navigation.pid && e.tid === navigation.tid && e.ts >= navigation.ts && e.ts < lcp.ts)
    .sort((a, b) => a.ts - b.ts || (b.dur ?? 0) - (a.dur ?? 0));
  /** @type {Map<TraceEvent, number>} thread time of each event less what is nested in it */
  const selfTime = new Map();
  /** @type {TraceEvent[]} */
  const open = [];
  for (const event of mainThread) {
    while (open.length && (open.at(-1)?.ts ?? 0) + (open.at(-1)?.dur ?? 0) <= event.ts) open.pop();
    const own = event.tdur ?? event.dur ?? 0;
    const parent = open.at(-1);
    if (parent) selfTime.set(parent, (selfTime.get(parent) ?? 0) - own);
    selfTime.set(event, (selfTime.get(event) ?? 0) + own);
    open.push(event);
  }
  /** @param {string[]} names */
  const sum = (names) => {
    let total = 0;
    for (const [event, time] of selfTime) if (names.includes(event.name)) total += time;
    return round(total / 1000, 1) ?? 0;
  };
  const fontEvents = [...selfTime.keys()].filter((event) => WORK.fonts.includes(event.name));
  const nestedFont = new Set(
    fontEvents.filter((event) =>
      fontEvents.some((outer) => outer !== event && outer.ts <= event.ts && event.ts < outer.ts + (outer.dur ?? 0)),
    ),
  );
  const work = {
    parseMs: sum(WORK.parse),
    styleMs: sum(WORK.style),
    layoutMs: sum(WORK.layout),
    fontMs: sum(WORK.fonts),
    scriptMs: sum(WORK.script),
    paintMs: sum(WORK.paint),
  };
  return {
    lcpMs: round((lcp.ts - navigation.ts) / 1000, 1) ?? 0,
    lcpType: lcp.args?.data?.type ?? null,
    ...work,
    fontLookups: fontEvents.length,
    /** Font look-ups wait on the browser's font service: wall time, each look-up not nested in another. */
    fontWallMs:
      round(fontEvents.filter((event) => !nestedFont.has(event)).reduce((total, event) => total + (event.dur ?? 0), 0) / 1000, 1) ?? 0,
    /** The document's own cost before its largest paint: parsing it, styling it, laying it out with its fonts. */
    firstPaintWorkMs: round(work.parseMs + work.styleMs + work.layoutMs + work.fontMs, 1) ?? 0,
  };
}

/** @typedef {ReturnType<typeof readPageTrace>} PageTrace */

/**
 * One cold load of `url` in a fresh mobile-sized context of `browser`, traced; with
 * `extraCss`, the page is served with that stylesheet added at the end of its head.
 * @param {import('playwright-core').Browser} browser
 * @param {string} url
 * @param {string} [extraCss]
 * @returns {Promise<TraceEvent[]>}
 */
async function recordTrace(browser, url, extraCss) {
  const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
  try {
    const page = await context.newPage();
    if (extraCss) {
      await page.route(url, async (route) => {
        const response = await route.fetch();
        const html = (await response.text()).replace('</head>', `<style>${extraCss}</style></head>`);
        await route.fulfill({ response, body: html });
      });
    }
    const cdp = await context.newCDPSession(page);
    /** @type {TraceEvent[]} */
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(.../** @type {TraceEvent[]} */ (/** @type {unknown} */ (value))));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    await page.goto(url, { waitUntil: 'load' });
    // On a loaded machine the page may not have painted its largest element by its load event.
    await page.evaluate(
      (timeoutMs) =>
        new Promise((resolve) => {
          new PerformanceObserver(resolve).observe({ type: 'largest-contentful-paint', buffered: true });
          setTimeout(resolve, timeoutMs);
        }),
      LCP_WAIT_MS,
    );
    // The largest paint is final once the page has rendered a few frames past it.
    await page.waitForTimeout(500);
    await cdp.send('Tracing.end');
    await complete;
    return events;
  } finally {
    await context.close();
  }
}

/**
 * @param {PageTrace[]} runs
 * @param {keyof PageTrace} key
 */
function spread(runs, key) {
  const values = runs.map((run) => run[key]).filter((value) => typeof value === 'number');
  return { median: values.length ? median(values) : null, min: Math.min(...values), max: Math.max(...values) };
}

/**
 * `rounds` rounds, each loading every page of `pages`, every static twin of `twins` and
 * then the floor, cold and unthrottled, in one Chromium: medians and ranges of each figure
 * per page, twin and the floor.
 * @param {{ pages: { id: string, url: string }[], twins?: { id: string, twinOf: string, url: string }[], floorUrl: string, rounds: number }} options
 */
export async function measurePageTraces({ pages, twins = [], floorUrl, rounds }) {
  heading(`Main-thread work before the largest paint (unthrottled Chromium traces, ${rounds} alternating rounds)`);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  const targets = [...pages, ...twins, { id: 'floor', url: floorUrl }];
  /** @type {Record<string, PageTrace[]>} */
  const runs = Object.fromEntries(targets.map((target) => [target.id, []]));
  try {
    for (let round = 1; round <= rounds; round += 1) {
      for (const target of targets) {
        const trace = readPageTrace(await recordTrace(browser, target.url));
        runs[target.id]?.push(trace);
        log(
          `  round ${round} ${target.id.padEnd(6)} LCP ${trace.lcpMs} ms (${trace.lcpType}); parse ${trace.parseMs} + style ${trace.styleMs} + ` +
            `layout ${trace.layoutMs} + fonts ${trace.fontMs} = ${trace.firstPaintWorkMs} ms; ${trace.fontLookups} font look-ups, ` +
            `${trace.fontWallMs} ms of wall time; ` +
            `script ${trace.scriptMs} ms, paint ${trace.paintMs} ms`,
        );
      }
    }
  } finally {
    await browser.close();
  }
  const summarise = (/** @type {string} */ id) => {
    const list = runs[id] ?? [];
    return {
      runs: list.length,
      lcpMs: spread(list, 'lcpMs'),
      firstPaintWorkMs: spread(list, 'firstPaintWorkMs'),
      parseMs: spread(list, 'parseMs'),
      styleMs: spread(list, 'styleMs'),
      layoutMs: spread(list, 'layoutMs'),
      fontMs: spread(list, 'fontMs'),
      fontLookups: spread(list, 'fontLookups'),
      fontWallMs: spread(list, 'fontWallMs'),
      paintMs: spread(list, 'paintMs'),
      scriptMs: spread(list, 'scriptMs'),
      all: list,
    };
  };
  return {
    rounds,
    floor: summarise('floor'),
    pages: pages.map((page) => ({ id: page.id, url: page.url, ...summarise(page.id) })),
    twins: twins.map((twin) => ({ id: twin.id, twinOf: twin.twinOf, url: twin.url, ...summarise(twin.id) })),
  };
}

/**
 * The CJK typography the stylesheet gives ja and zh-CN readers, each rule switched off in
 * turn: the line breaking rules that keep closing punctuation and small kana off the start
 * of a line (`line-break: strict`), the phrase-aware breaks of Japanese headings
 * (`word-break: auto-phrase`), and balanced heading lines (`text-wrap: balance`).
 */
export const TYPOGRAPHY_VARIANTS = [
  { id: 'as shipped', css: '' },
  { id: 'no line-break: strict', css: ':lang(zh-CN),:lang(ja){line-break:auto!important}' },
  { id: 'no word-break: auto-phrase', css: ':lang(ja) :is(h1,h2,h3){word-break:normal!important}' },
  { id: 'no text-wrap: balance', css: ':is(h1,h2,h3){text-wrap:wrap!important}' },
  {
    id: 'none of them',
    css: ':lang(zh-CN),:lang(ja){line-break:auto!important}:is(h1,h2,h3){word-break:normal!important;text-wrap:wrap!important}',
  },
];

/**
 * What the CJK typography costs before the largest paint: `rounds` rounds, each loading
 * every page of `pages` in every variant of TYPOGRAPHY_VARIANTS (the variant's stylesheet
 * added to the served page), cold and unthrottled: medians and ranges per page and variant.
 * @param {{ pages: { id: string, url: string }[], rounds: number }} options
 */
export async function measureTypographyCost({ pages, rounds }) {
  heading(`What the CJK typography costs before the largest paint (unthrottled traces, ${rounds} rounds)`);
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  /** @type {Record<string, PageTrace[]>} */
  const runs = {};
  try {
    for (let round = 1; round <= rounds; round += 1) {
      for (const page of pages) {
        for (const variant of TYPOGRAPHY_VARIANTS) {
          const trace = readPageTrace(await recordTrace(browser, page.url, variant.css));
          (runs[`${page.id} ${variant.id}`] ??= []).push(trace);
        }
      }
    }
  } finally {
    await browser.close();
  }
  return pages.flatMap((page) =>
    TYPOGRAPHY_VARIANTS.map((variant) => {
      const list = runs[`${page.id} ${variant.id}`] ?? [];
      const result = {
        page: page.id,
        variant: variant.id,
        runs: list.length,
        layoutMs: spread(list, 'layoutMs'),
        firstPaintWorkMs: spread(list, 'firstPaintWorkMs'),
      };
      log(
        `  ${page.id.padEnd(6)} ${variant.id.padEnd(28)} parse + style + layout ${result.firstPaintWorkMs.median} ms ` +
          `(${result.firstPaintWorkMs.min}–${result.firstPaintWorkMs.max}), layout ${result.layoutMs.median} ms`,
      );
      return result;
    }),
  );
}
