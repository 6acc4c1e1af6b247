// Visitors' tabs during the game day: one Chromium, a page per release that needs one. A
// "reloads" tab comes back every few seconds, as a reader moving between pages does (each
// load fetches the build's route manifest once idle), and hovers the carousel, which loads
// its Swiper chunk on demand; a "chunks" tab opens on its release once the upgrade is in and
// hovers the carousel until the page gives up reloading for the chunk, then comes back and
// does it again every 20 s until the alert fires. Each tab is a context
// of its own (an empty cache), as a new visitor's.
import { chromium } from '@playwright/test';
import { setTimeout as sleep } from 'node:timers/promises';
import { isBeaconUrl } from '../rollout/beacons.mjs';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../debian-packages.mjs';

const RELOAD_EVERY_MS = 3000;
const REVISIT_EVERY_MS = 20_000;
const CAROUSEL = { role: /** @type {const} */ ('region'), name: 'Highlights' };
/** What the error page of a blocked chunk reload says (src/ui/error-view). */
const ERROR_HEADING = 'Internal Server Error';

/** @param {import('@playwright/test').Page} page */
async function hoverCarousel(page) {
  await page.getByRole(CAROUSEL.role, { name: CAROUSEL.name }).hover({ timeout: 5000 });
}

export async function startBrowser() {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  let closed = false;
  /** @type {Promise<unknown>[]} */
  const loops = [];
  return {
    /**
     * A tab on `url` reloading every few seconds until the browser closes; resolves once
     * its first load is in.
     * @param {string} url
     */
    async reloadingTab(url) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      await page.goto(url);
      const loop = (async () => {
        while (!closed) {
          await hoverCarousel(page).catch(() => {});
          await sleep(RELOAD_EVERY_MS);
          if (!closed) await page.reload().catch(() => {});
        }
      })();
      loops.push(loop);
      return { page };
    },
    /**
     * A tab on `url`, open now; `clickUntilBlocked()` hovers the carousel until the error
     * page shows (its chunk reload blocked), and resolves with how many tries it took;
     * `revisitUntil(signal)` then comes back to `url` and hits the fault again every
     * REVISIT_EVERY_MS, as the visitors after the first do, until `signal` aborts. What the
     * server answered each of the tab's reports goes to `log`.
     * @param {string} url
     * @param {(line: string) => void} log
     */
    async waitingTab(url, log) {
      const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
      page.on('response', (response) => {
        if (isBeaconUrl(new URL(response.url()))) log(`the tab on ${url} reported: ${response.status()}`);
      });
      await page.goto(url);
      return {
        page,
        /** @param {AbortSignal} signal */
        async revisitUntil(signal) {
          while (!signal.aborted) {
            await sleep(REVISIT_EVERY_MS, undefined, { signal }).catch(() => {});
            if (signal.aborted) return;
            await page.goto(url).catch(() => {});
            await this.clickUntilBlocked(60_000, signal).catch(() => {});
          }
        },
        /** @param {number} timeoutMs @param {AbortSignal} [signal] gives up at once when it aborts */
        async clickUntilBlocked(timeoutMs, signal) {
          const deadline = Date.now() + timeoutMs;
          for (let tries = 1; Date.now() < deadline && !signal?.aborted; tries += 1) {
            await hoverCarousel(page).catch(() => {});
            await sleep(1500);
            const heading = await page
              .getByRole('heading', { level: 1 })
              .first()
              .textContent({ timeout: 1000 })
              .catch(() => null);
            if (heading === ERROR_HEADING) return tries;
            // Off the carousel and back: the next hover is a new one.
            await page.mouse.move(0, 0).catch(() => {});
          }
          throw new Error(`gameday: the tab on ${url} never reached the error page of a blocked chunk reload`);
        },
      };
    },
    async close() {
      closed = true;
      await Promise.allSettled(loops);
      await browser.close();
    },
  };
}
