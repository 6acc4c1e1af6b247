// Visitors' browsers during a canary release, in one Chromium: open tabs that stay all
// along (each its own browser context, so its own connections and pod), and short visits
// one after another that load a page, let it report its load (TTFB, LCP, failures) and
// leave, which is what gives the analysis page views of both builds.
import { chromium } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../debian-packages.mjs';
import { waitFor } from '../lib/wait.mjs';
import { buildIdOfPage } from './answered-build.mjs';
import { beaconEventTypes, routeBeacons } from './beacons.mjs';

/** Each locale's home page and the main navigation's link a tab follows in it. */
export const PAGES = [
  { path: '/', navigation: 'Main', link: 'Rollouts' },
  { path: '/ja', navigation: 'メインナビゲーション', link: 'ロールアウト' },
  { path: '/zh-CN', navigation: '主导航', link: '发布上线' },
];

/** A script or manifest of the page that failed to load (the skew the canary must not cause). */
const isPageFile = (/** @type {string} */ url) => url.includes('/_next/static/') || url.includes('/builds/meta/');

/** How long the visits get to end once stopped: the longest visit's navigations, and some. */
const VISIT_END_MS = 60_000;

/** The reports of a chunk that failed to load (src/freshness/chunk-recovery.ts). */
const CHUNK_FAILURES = new Set(['chunk_reload', 'chunk_reload_blocked']);

/**
 * Watches a page: every document it loads in full, with its build, every file of its own
 * that failed, with when, and every chunk failure it reported, with the time its beacon left.
 * @param {import('@playwright/test').Page} page
 */
async function watchPage(page) {
  const watched = {
    /** @type {{ at: number, build: string }[]} */
    documents: [],
    /** @type {{ at: number, file: string }[]} */
    failedFiles: [],
    /** @type {{ at: number, id: string, canary: string | null }[]} */
    polls: [],
    /** @type {{ at: number, type: string }[]} */
    chunkFailures: [],
  };
  await routeBeacons(page, (request) => {
    for (const type of beaconEventTypes(request)) if (CHUNK_FAILURES.has(type)) watched.chunkFailures.push({ at: Date.now(), type });
  });
  page.on('requestfinished', (request) => {
    if (!request.isNavigationRequest() || request.frame() !== page.mainFrame() || !request.url().startsWith('http')) return;
    void request
      .response()
      .then((response) => response?.text())
      .then((html) => watched.documents.push({ at: Date.now(), build: buildIdOfPage(html ?? '') }))
      .catch(() => {});
  });
  page.on('requestfailed', (request) => {
    const error = request.failure()?.errorText ?? '';
    // Aborted: the page was left (a visit ending, a full load) while it was still loading.
    if (isPageFile(request.url()) && error !== 'net::ERR_ABORTED')
      watched.failedFiles.push({ at: Date.now(), file: `${request.url()} (${error})` });
  });
  page.on('response', (response) => {
    const url = response.url();
    if (isPageFile(url) && response.status() >= 400) watched.failedFiles.push({ at: Date.now(), file: `${url} (${response.status()})` });
    if (new URL(url).pathname === '/builds/latest.json' && response.ok())
      response.json().then(
        (body) => watched.polls.push({ at: Date.now(), id: String(body.id), canary: body.canary ?? null }),
        () => {},
      );
  });
  return watched;
}

/**
 * Starts Chromium with `tabs` open tabs on the site at `baseUrl` (the pages in turn) and
 * `visitors` visits running side by side until stopped.
 * @param {{ baseUrl: string, tabs: number, visitors: number, mark: import('./scenario.mjs').Mark }} options
 */
export async function startVisitors({ baseUrl, tabs, visitors, mark }) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  /** @type {{ at: number, path: string, build: string, failedFiles: { at: number, file: string }[], chunkFailures: { at: number, type: string }[] }[]} */
  const visits = [];
  let stopping = false;
  try {
    /** @type {{ index: number, target: (typeof PAGES)[number], page: import('@playwright/test').Page, watched: Awaited<ReturnType<typeof watchPage>>, firstBuild: string }[]} */
    const open = [];
    for (let index = 0; index < tabs; index += 1) {
      const target = /** @type {(typeof PAGES)[number]} */ (PAGES[index % PAGES.length]);
      const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
      const page = await context.newPage();
      const watched = await watchPage(page);
      await page.goto(`${baseUrl}${target.path}`);
      await waitFor(
        `tab ${index} to load`,
        () => {
          if (!watched.documents[0]) throw new Error('no document yet');
        },
        { timeoutMs: 60_000 },
      );
      const firstBuild = /** @type {{ build: string }} */ (watched.documents[0]).build;
      mark('tab-opened', `tab ${index} opened on ${target.path} of ${firstBuild}`, { slot: `tab ${index}`, build: firstBuild });
      open.push({ index, target, page, watched, firstBuild });
    }

    /** One visitor after another: a page, its load reported, then left. @param {number} visitor */
    const visitLoop = async (visitor) => {
      for (let count = 0; !stopping; count += 1) {
        const target = /** @type {(typeof PAGES)[number]} */ (PAGES[(visitor + count) % PAGES.length]);
        const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
        try {
          const page = await context.newPage();
          const watched = await watchPage(page);
          await page.goto(`${baseUrl}${target.path}`, { waitUntil: 'load', timeout: 20_000 });
          // web-vitals and the poller load once the page is idle after its load event.
          await page.waitForLoadState('networkidle', { timeout: 10_000 }).catch(() => {});
          await sleep(1000);
          // A visitor's input makes LCP final; the page turning hidden sends what is queued
          // (its TTFB, the page view, and LCP), as a visitor leaving the tab does.
          await page.keyboard.press('Shift');
          await page.evaluate(() => {
            Object.defineProperty(document, 'visibilityState', { value: 'hidden', configurable: true });
            document.dispatchEvent(new Event('visibilitychange'));
          });
          await sleep(200);
          await page.goto('about:blank');
          const build = watched.documents[0]?.build ?? 'unknown';
          visits.push({ at: Date.now(), path: target.path, build, failedFiles: watched.failedFiles, chunkFailures: watched.chunkFailures });
        } catch {
          // A visit cut short (the browser closing, a slow machine) reports what it reported.
        } finally {
          await context.close().catch(() => {});
        }
      }
    };
    const loops = Array.from({ length: visitors }, (_, visitor) => visitLoop(visitor));

    return {
      visits,
      tabs: open,
      /**
       * Lets each tab not on `build` move there as a visitor would: once its poll says `build`
       * is the one tabs belong on, its next click on a link of the menu is a full load.
       * Resolves with each tab's loads after the first (its reloads).
       * @param {string} build
       */
      async settleOn(build) {
        for (const tab of open) {
          const current = tab.watched.documents.at(-1)?.build;
          if (current === build) continue;
          await waitFor(
            `tab ${tab.index} to hear that ${build} is the build tabs belong on`,
            () => {
              if (!tab.watched.polls.some((poll) => poll.id === build && poll.canary === null)) throw new Error('not yet');
            },
            { timeoutMs: 60_000, intervalMs: 250 },
          );
          // The poller acts on the answer once its body is read.
          await sleep(500);
          const loads = tab.watched.documents.length;
          await tab.page.getByRole('navigation', { name: tab.target.navigation }).getByRole('link', { name: tab.target.link }).click();
          await waitFor(
            `tab ${tab.index} to load a page in full`,
            () => {
              if (tab.watched.documents.length === loads) throw new Error('no full load');
            },
            { timeoutMs: 30_000 },
          );
          const moved = tab.watched.documents.at(-1)?.build ?? 'unknown';
          mark('tab-moved', `tab ${tab.index} moved from ${current} to ${moved}`, { slot: `tab ${tab.index}`, build: moved });
        }
        return open.map((tab) => ({
          path: tab.target.path,
          firstBuild: tab.firstBuild,
          reloads: tab.watched.documents.slice(1).map((document) => document.build),
          failedFiles: tab.watched.failedFiles,
          chunkFailures: tab.watched.chunkFailures,
          polls: tab.watched.polls,
        }));
      },
      async stop() {
        stopping = true;
        // A visit's navigations have timeouts, its evaluate and key press none: past this,
        // closing the browser ends what still waits. Unref'd: once the visits end, the timer
        // must not hold a command that stopped them (rollout:demo) from exiting.
        await Promise.race([Promise.all(loops), sleep(VISIT_END_MS, undefined, { ref: false })]);
        await browser.close();
      },
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
