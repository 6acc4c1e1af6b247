// First-visit JavaScript bytes for a page: compressed bytes of every script response, via CDP,
// for Meridian and for the floor (tools/bench/floor.mjs) in the same run.
import { CHROMIUM_FLAGS, CHROMIUM_PATH, heading, kib, log, round } from './util.mjs';

/**
 * Meridian's own JavaScript over the floor's (a hello world with the same Next, React and
 * bundler), compressed bodies: by the load event and by AFTER_LOAD_MS after it (so nothing
 * is only moved past the event), and with on-demand code after 6 s.
 */
export const JS_OVER_FLOOR_KIB = 8;
export const JS_LATER_OVER_FLOOR_KIB = 40;
export const AFTER_LOAD_MS = 300;
const LATER_MS = 6_000;

/**
 * @param {Record<string, string> | undefined} headers
 * @param {string} name
 */
function header(headers = {}, name) {
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? null : (headers[key] ?? null);
}

/**
 * What the network events told about one request.
 * @typedef {object} RequestRecord
 * @property {string | null} [acceptEncoding]
 * @property {string} [url]
 * @property {string} [type]
 * @property {number} [status]
 * @property {string | null} [encoding]
 * @property {boolean} [fromCache]
 * @property {number} [encodedDataLength]
 * @property {number} [finishedAt]
 */

/**
 * A script whose response and its end were seen (a script's response event carries its URL).
 * @param {RequestRecord} r
 * @returns {r is RequestRecord & { url: string, encodedDataLength: number }}
 */
const isFinishedScript = (r) => r.type === 'Script' && r.encodedDataLength !== undefined && r.url !== undefined;

/**
 * Loads `url` in a fresh Chromium context, waits for network idle plus ~1 s, and sums
 * Network.loadingFinished.encodedDataLength (bytes on the wire, compressed as sent,
 * headers included) of every response whose resource type is Script. Resource Timing's
 * encodedBodySize / decodedBodySize give the compressed and raw body sizes alongside.
 * @param {string} url
 */
export async function measureFirstVisitJs(url) {
  heading('JavaScript by the load event and after 6 s (Chromium via playwright-core)');
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, headless: true, args: CHROMIUM_FLAGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    /** @type {Map<string, RequestRecord>} */
    const requests = new Map();
    const entry = (/** @type {string} */ id) => {
      const known = requests.get(id);
      if (known) return known;
      /** @type {RequestRecord} */
      const created = {};
      requests.set(id, created);
      return created;
    };
    cdp.on('Network.requestWillBeSentExtraInfo', (e) => {
      entry(e.requestId).acceptEncoding = header(e.headers, 'accept-encoding');
    });
    cdp.on('Network.responseReceived', (e) => {
      Object.assign(entry(e.requestId), {
        url: e.response.url,
        type: e.type,
        status: e.response.status,
        encoding: header(e.response.headers, 'content-encoding'),
        fromCache: Boolean(e.response.fromDiskCache || e.response.fromServiceWorker || e.response.fromPrefetchCache),
      });
    });
    cdp.on('Network.loadingFinished', (e) => {
      Object.assign(entry(e.requestId), { encodedDataLength: e.encodedDataLength, finishedAt: e.timestamp });
    });
    let loadEventAt = Infinity;
    cdp.on('Page.loadEventFired', (e) => {
      loadEventAt = e.timestamp;
    });
    await cdp.send('Page.enable');
    await cdp.send('Network.enable');

    // What a visitor has downloaded by the load event (async scripts hold it back).
    const response = await page.goto(url, { waitUntil: 'load' });
    const timing = await page.evaluate(() =>
      /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource')).map((e) => ({
        url: e.name,
        transferSize: e.transferSize,
        encodedBodySize: e.encodedBodySize,
        decodedBodySize: e.decodedBodySize,
      })),
    );
    const documentRequest = [...requests.values()].find((r) => r.type === 'Document');
    // The first visit: what arrived by the load event, copied before waiting on.
    // (Same clock as the network events; code fetched after the load event is on-demand.)
    const firstLoad = [...requests.values()]
      .filter((r) => r.finishedAt !== undefined && r.finishedAt <= loadEventAt)
      .map((r) => ({ ...r }));
    // Code loaded on demand (web vitals after load, Swiper a few seconds later)
    // is not part of the first load, but a visitor who stays downloads it too.
    const scriptWireBytes = () =>
      [...requests.values()].filter((r) => r.type === 'Script').reduce((total, r) => total + (r.encodedDataLength ?? 0), 0);
    await page.waitForTimeout(LATER_MS);
    const laterWireBytes = scriptWireBytes();
    const { laterBodyBytes, afterLoadBodyBytes } = await page.evaluate((afterLoadMs) => {
      const scripts = /** @type {PerformanceResourceTiming[]} */ (performance.getEntriesByType('resource')).filter(
        (e) => e.initiatorType === 'script' || /\.js(?:\?|$)/.test(new URL(e.name).pathname),
      );
      const navigation = /** @type {PerformanceNavigationTiming} */ (performance.getEntriesByType('navigation')[0]);
      const bytes = (/** @type {PerformanceResourceTiming[]} */ list) => list.reduce((total, e) => total + e.encodedBodySize, 0);
      return {
        laterBodyBytes: bytes(scripts),
        afterLoadBodyBytes: bytes(scripts.filter((e) => e.responseEnd <= navigation.loadEventStart + afterLoadMs)),
      };
    }, AFTER_LOAD_MS);
    await context.close();

    const byUrl = new Map(timing.map((t) => [t.url, t]));
    const scripts = firstLoad
      .filter(isFinishedScript)
      .map((r) => ({
        url: r.url,
        status: r.status,
        encoding: r.encoding,
        fromCache: r.fromCache,
        wireBytes: r.encodedDataLength,
        bodyBytes: byUrl.get(r.url)?.encodedBodySize ?? null,
        decodedBytes: byUrl.get(r.url)?.decodedBodySize ?? null,
      }))
      .sort((a, b) => b.wireBytes - a.wireBytes);

    const sum = (/** @type {'wireBytes' | 'bodyBytes' | 'decodedBytes'} */ key) => scripts.reduce((total, s) => total + (s[key] ?? 0), 0);
    const wireBytes = sum('wireBytes');
    // Next's compression skips bodies under 1 KiB; only bigger identity-encoded scripts are a problem.
    const uncompressed = scripts.filter((s) => !s.encoding && (s.decodedBytes ?? s.wireBytes) >= 1024);
    log(`  page: ${url} -> HTTP ${response?.status()}; document request Accept-Encoding: ${documentRequest?.acceptEncoding ?? 'unknown'}`);
    for (const s of scripts) {
      const name = new URL(s.url).pathname;
      log(
        `  ${kib(s.wireBytes).toFixed(1).padStart(7)} KiB  ${(s.encoding ?? 'IDENTITY').padEnd(8)} ` +
          `(raw ${s.decodedBytes === null ? '?' : kib(s.decodedBytes).toFixed(1)} KiB)  ${name}`,
      );
    }
    log(
      `  ${scripts.length} script responses: ${kib(wireBytes).toFixed(1)} KiB transferred (compressed, headers included), ` +
        `${kib(sum('bodyBytes')).toFixed(1)} KiB compressed bodies, ${kib(sum('decodedBytes')).toFixed(1)} KiB uncompressed`,
    );
    if (uncompressed.length) log(`  WARNING: ${uncompressed.length} script(s) of 1 KiB or more were sent without Content-Encoding`);
    if (scripts.some((s) => s.fromCache)) log('  WARNING: some scripts came from a cache; the numbers undercount');
    log(`  by ${AFTER_LOAD_MS} ms after the load event: ${kib(afterLoadBodyBytes).toFixed(1)} KiB compressed bodies`);
    log(
      `  after ${LATER_MS / 1000} more seconds on the page (on-demand code included): ${kib(laterWireBytes).toFixed(1)} KiB transferred, ` +
        `${kib(laterBodyBytes).toFixed(1)} KiB compressed bodies`,
    );
    log('  (inline <script> payloads, e.g. the RSC flight data, are part of the HTML document and not counted here)');

    return {
      url,
      status: response?.status() ?? null,
      acceptEncoding: documentRequest?.acceptEncoding ?? null,
      scriptCount: scripts.length,
      transferredKiB: round(kib(wireBytes), 1),
      laterKiB: round(kib(laterWireBytes), 1),
      compressedBodyKiB: round(kib(sum('bodyBytes')), 1) ?? 0,
      laterBodyKiB: round(kib(laterBodyBytes), 1) ?? 0,
      afterLoadBodyKiB: round(kib(afterLoadBodyBytes), 1) ?? 0,
      uncompressedKiB: round(kib(sum('decodedBytes')), 1),
      scripts,
    };
  } finally {
    await browser.close();
  }
}

/**
 * Meridian's page and the floor's, one after the other (bytes do not vary from run to run):
 * each one's figures, and Meridian's compressed bodies over the floor's.
 * @param {{ url: string, floorUrl: string }} options
 */
export async function measureJsAgainstFloor({ url, floorUrl }) {
  const meridian = await measureFirstVisitJs(url);
  const floor = await measureFirstVisitJs(floorUrl);
  return {
    meridian,
    floor,
    overFloorKiB: {
      byLoad: round(meridian.compressedBodyKiB - floor.compressedBodyKiB, 1) ?? 0,
      afterLoad: round(meridian.afterLoadBodyKiB - floor.afterLoadBodyKiB, 1) ?? 0,
      later: round(meridian.laterBodyKiB - floor.laterBodyKiB, 1) ?? 0,
    },
  };
}
