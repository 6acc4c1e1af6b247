// A visitor's open tab during the rollout: Chromium on the home page, polling
// builds/latest.json through the load balancer like every open tab does.
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../debian-packages.mjs';
import { buildIdOfPage } from './answered-build.mjs';
import { beaconEventTypes, routeBeacons } from './beacons.mjs';
import { waitFor } from '../lib/wait.mjs';

/**
 * The text of the next document the tab loads in full. A navigation Chromium
 * aborts and starts again (the app's reload does so) may already have had its
 * answer's headers, never its body: only a request that finished counts.
 * @param {import('@playwright/test').Page} page
 */
async function nextDocumentText(page) {
  const request = await page.waitForEvent(
    'requestfinished',
    (finished) => finished.isNavigationRequest() && finished.frame() === page.mainFrame(),
  );
  const response = await request.response();
  if (!response) throw new Error(`browser-tab: no response for ${request.url()}`);
  return response.text();
}

/** The English page's main navigation and the link the tab follows in it. */
const ENGLISH_MENU = { navigation: 'Main', link: 'Rollouts' };

/**
 * Opens `url` at 1280×800 (the header shows its menu) and records every
 * answer to the tab's polls, with the time it arrived, and every beacon it sent
 * with what became of it. `menu` names the main navigation and its link in the
 * page's language.
 * @param {string} url
 * @param {{ navigation: string, link: string }} [menu]
 */
export async function openTab(url, menu = ENGLISH_MENU) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
  /** @type {{ at: number, build: string }[]} */
  const polls = [];
  /** Each beacon as sent, then what became of it. @type {Map<import('@playwright/test').Request, { at: number, events: string[], outcome: string }>} */
  const beacons = new Map();
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await routeBeacons(page, (request) => beacons.set(request, { at: Date.now(), events: beaconEventTypes(request), outcome: 'sent' }));
    page.on('requestfinished', (request) => {
      const beacon = beacons.get(request);
      if (beacon) void request.response().then((response) => (beacon.outcome = `HTTP ${response?.status() ?? 'unknown'}`));
    });
    page.on('requestfailed', (request) => {
      const beacon = beacons.get(request);
      if (beacon) beacon.outcome = request.failure()?.errorText ?? 'failed';
    });
    page.on('response', (response) => {
      if (new URL(response.url()).pathname !== '/builds/latest.json') return;
      response.json().then(
        (body) => polls.push({ at: Date.now(), build: String(body.id) }),
        () => polls.push({ at: Date.now(), build: `no answer (${response.status()})` }),
      );
    });
    const firstDocument = nextDocumentText(page);
    await page.goto(url);
    const firstBuild = buildIdOfPage(await firstDocument);

    return {
      firstBuild,
      /** The beacons sent so far. */
      beacons: () => [...beacons.values()].map((beacon) => ({ ...beacon })),
      /**
       * Resolves with the first poll answered by `buildId`: the moment the tab learned of it.
       * @param {string} buildId
       * @param {number} timeoutMs
       */
      waitForPollAnswer: (buildId, timeoutMs) =>
        waitFor(
          `the tab to poll and hear of ${buildId}`,
          () => {
            const poll = polls.find(({ build }) => build === buildId);
            if (!poll) throw new Error(`polls so far: ${polls.map(({ build }) => build).join(', ') || 'none'}`);
            return poll;
          },
          { timeoutMs },
        ),
      /** Clicks the header's rollouts link and returns which build answered the document that loaded. */
      async followMenuLink() {
        const document = nextDocumentText(page);
        await page.getByRole('navigation', { name: menu.navigation }).getByRole('link', { name: menu.link }).click();
        const html = await document;
        return { at: Date.now(), build: buildIdOfPage(html) };
      },
      close: () => browser.close(),
    };
  } catch (error) {
    await browser.close();
    throw error;
  }
}
