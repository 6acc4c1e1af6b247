// What the largest paint waits on, read from a Chromium performance trace of one load
// (not a guess): the page is loaded under Lighthouse's mobile throttling applied by
// DevTools (150 ms RTT, 1.6 Mbit/s down, CPU 4× slower), and the trace's events are
// laid on one time line from navigation start: when each stylesheet, script and the
// LCP image finished, when scripts ran, the first paint, and the LCP candidate.
// Whatever ends just before the LCP and after the image arrived is what it waited on.
import { writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, heading, log, round } from './util.mjs';

const CATEGORIES = [
  'devtools.timeline',
  'disabled-by-default-devtools.timeline',
  'loading',
  'blink.user_timing',
  'v8.execute',
  'netlog',
].join(',');

/** Lighthouse's mobile preset (slow 4G, mid-tier phone), applied for real rather than simulated. */
const MOBILE = { latencyMs: 150, downloadBps: (1.6 * 1024 * 1024) / 8, uploadBps: (750 * 1024) / 8, cpuSlowdown: 4 };

async function recordTrace(url) {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext({ viewport: { width: 412, height: 823 }, deviceScaleFactor: 1.75, isMobile: true });
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
    await cdp.send('Network.emulateNetworkConditions', {
      offline: false,
      latency: MOBILE.latencyMs,
      downloadThroughput: MOBILE.downloadBps,
      uploadThroughput: MOBILE.uploadBps,
    });
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: MOBILE.cpuSlowdown });
    const events = [];
    cdp.on('Tracing.dataCollected', ({ value }) => events.push(...value));
    const complete = new Promise((resolve) => cdp.once('Tracing.tracingComplete', resolve));
    await cdp.send('Tracing.start', { categories: CATEGORIES, transferMode: 'ReportEvents' });
    await page.goto(url, { waitUntil: 'load' });
    await page.waitForTimeout(3000);
    await cdp.send('Tracing.end');
    await complete;
    await context.close();
    return events;
  } finally {
    await browser.close();
  }
}

const shortName = (url) => {
  try {
    const { pathname } = new URL(url);
    return pathname.length > 48 ? `…${pathname.slice(-47)}` : pathname;
  } catch {
    return String(url).slice(0, 48);
  }
};

/** The trace's main-frame events reduced to a time line (ms from navigation start). */
export function analyseTrace(events) {
  const navigation = events.find((e) => e.name === 'navigationStart' && e.args?.data?.isLoadingMainFrame);
  if (!navigation) throw new Error('lcp-trace: no main-frame navigationStart in the trace');
  const t0 = navigation.ts;
  const ms = (ts) => round((ts - t0) / 1000, 0);
  const frame = navigation.args.frame;

  const requests = new Map();
  for (const e of events) {
    const data = e.args?.data;
    if (!data?.requestId) continue;
    const r = requests.get(data.requestId) ?? {};
    if (e.name === 'ResourceSendRequest')
      Object.assign(r, { url: data.url, start: ms(e.ts), priority: data.priority, blocking: data.renderBlocking });
    if (e.name === 'ResourceReceiveResponse') Object.assign(r, { mime: data.mimeType });
    if (e.name === 'ResourceFinish') Object.assign(r, { end: ms(e.ts), bytes: data.encodedDataLength });
    requests.set(data.requestId, r);
  }
  const resources = [...requests.values()].filter((r) => r.url && r.end !== undefined).sort((a, b) => a.end - b.end);

  const lcps = events
    .filter((e) => e.name === 'largestContentfulPaint::Candidate' && (e.args?.frame ?? frame) === frame)
    .map((e) => ({ at: ms(e.ts), type: e.args.data?.type, url: e.args.data?.url ?? null, size: e.args.data?.size }));
  const lcp = lcps.at(-1) ?? null;
  const firstPaint = events.find((e) => e.name === 'firstPaint' && e.args?.frame === frame);
  const fcp = events.find((e) => e.name === 'firstContentfulPaint' && e.args?.frame === frame);
  const scripts = events
    .filter((e) => e.name === 'EvaluateScript' && e.dur && e.args?.data?.url && e.args.data.frame === frame)
    .map((e) => ({ url: e.args.data.url, start: ms(e.ts), end: ms(e.ts + e.dur) }));
  const longTasks = events
    .filter((e) => e.name === 'RunTask' && e.dur > 50_000)
    .map((e) => ({ start: ms(e.ts), durationMs: round(e.dur / 1000, 0) }));
  const lcpImage = lcp?.url ? resources.find((r) => r.url === lcp.url) : null;
  const styles = resources.filter((r) => /css/.test(r.mime ?? '') || /\.css(\?|$)/.test(r.url));
  const stylesEnd = Math.max(0, ...styles.map((r) => r.end));
  const scriptsBeforeLcp = lcp ? scripts.filter((s) => s.end <= lcp.at) : [];
  const document = resources.find((r) => r.mime === 'text/html');
  return {
    lcp,
    lcpCandidates: lcps,
    firstPaintMs: firstPaint ? ms(firstPaint.ts) : null,
    fcpMs: fcp ? ms(fcp.ts) : null,
    documentEndMs: document?.end ?? null,
    lcpImage: lcpImage ? { url: shortName(lcpImage.url), start: lcpImage.start, end: lcpImage.end } : null,
    stylesheets: styles.map((r) => ({ url: shortName(r.url), start: r.start, end: r.end, renderBlocking: r.blocking })),
    stylesEndMs: styles.length ? stylesEnd : null,
    scriptsRunBeforeLcp: scriptsBeforeLcp.map((s) => ({ url: shortName(s.url), start: s.start, end: s.end })),
    lastScriptBeforeLcpEndMs: scriptsBeforeLcp.length ? Math.max(...scriptsBeforeLcp.map((s) => s.end)) : null,
    renderDelayMs: lcp && lcpImage ? lcp.at - lcpImage.end : null,
    longTasks,
  };
}

/** Records a throttled load of each URL and prints what its largest paint waited on. */
export async function traceLcp(urls, { traceDir } = {}) {
  heading('LCP trace (Chromium, DevTools throttling: 150 ms RTT, 1.6 Mbit/s, CPU 4×)');
  const results = [];
  for (const url of urls) {
    const events = await recordTrace(url);
    if (traceDir) {
      mkdirSync(traceDir, { recursive: true });
      writeFileSync(
        path.join(traceDir, `trace-${shortName(url).replace(/[^a-zA-Z0-9-]+/g, '_') || 'root'}.json`),
        JSON.stringify({ traceEvents: events }),
      );
    }
    const a = analyseTrace(events);
    log(`  ${url}`);
    log(
      `    document ${a.documentEndMs} ms, first paint ${a.firstPaintMs} ms, FCP ${a.fcpMs} ms, LCP ${a.lcp?.at ?? '?'} ms (${a.lcp?.type ?? '?'} ${a.lcp?.url ? shortName(a.lcp.url) : ''})`,
    );
    if (a.lcpImage) log(`    LCP image requested ${a.lcpImage.start} ms, arrived ${a.lcpImage.end} ms: render delay ${a.renderDelayMs} ms`);
    for (const s of a.stylesheets) log(`    stylesheet ${s.url} ${s.start} → ${s.end} ms (${s.renderBlocking ?? 'n/a'})`);
    for (const s of a.scriptsRunBeforeLcp) log(`    script ran before LCP: ${s.url} ${s.start} → ${s.end} ms`);
    results.push({ url, ...a });
  }
  return results;
}
