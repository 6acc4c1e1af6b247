import { expect, test } from '@playwright/test';
import { LOADING_BAR_TIMINGS } from '@/ui/navigation-progress/loading-bar-machine';
import { waitForHydration } from './support/hydration';
import { recordAttribute, recordedValues, slowClientNavigations } from './support/slow-navigation';

test.use({ viewport: { width: 1280, height: 800 } });

const BAR = '[data-testid="loading-bar"]';

test('a slow navigation shows the bar, which completes and hides', async ({ page }) => {
  await slowClientNavigations(page, 1500);
  await page.goto('/e2e-fixtures/crash');
  const bar = page.locator(BAR).first();
  await expect(bar).toHaveAttribute('data-visible', 'false');
  await waitForHydration(page, 'header a');
  await page
    .locator('header')
    .getByRole('link', { name: /Meridian/ })
    .click();
  // One look at the state: on a loaded machine the bar's second or so may be over between two looks.
  await expect(page.locator(`${BAR}[data-visible="true"][data-phase="progressing"]`)).toHaveCount(1);
  await expect(bar).toHaveCSS('height', '2px');
  await expect(bar).toHaveCSS('background-color', 'rgb(74, 93, 255)');
  await expect(page).toHaveURL(/\/$/);
  await expect(bar).toHaveAttribute('data-phase', /finished|hidden/);
  await expect(bar).toHaveAttribute('data-visible', 'false', { timeout: 3_000 });
  await expect(bar).toHaveAttribute('data-phase', 'hidden', { timeout: 3_000 });
});

test('a fast navigation never shows the bar', async ({ page }) => {
  // The page's clock is held from the click until the navigation has ended: however loaded this
  // machine is, the navigation ends within the throttle, and the bar must then never show.
  await page.clock.install();
  // The router prefetches the target once the page is idle (after the route manifest), so the
  // navigation needs nothing from the network: wait for that answer.
  const prefetched = page.waitForResponse((response) => {
    const url = new URL(response.url());
    return url.pathname === '/' && url.searchParams.has('_rsc');
  });
  await page.goto('/e2e-fixtures/crash');
  await (await prefetched).finished();
  await recordAttribute(page, BAR, 'data-visible');
  // A moment ahead of the page's time (never behind it): what falls due before then runs first.
  await page.clock.pauseAt((await page.evaluate(() => Date.now())) + 1000);
  await page
    .locator('header')
    .getByRole('link', { name: /Meridian/ })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.locator('main')).toBeVisible();
  await page.clock.runFor(LOADING_BAR_TIMINGS.throttleMs * 3);
  await page.clock.resume();
  expect(await recordedValues(page)).not.toContain('true');
});
