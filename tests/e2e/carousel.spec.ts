import { expect, test, type Page } from '@playwright/test';
import { recordLayoutShiftsFromNow, recordedLayoutShifts } from './support/layout-shifts';
import { throttle } from './support/throttling';

test.use({ viewport: { width: 1280, height: 800 } });

const TITLES = ['Fast pages in every language', 'Releases your readers never notice', 'Signals you can trust at 3 a.m.'];

/** Reaching for the carousel loads Swiper; wait until it has taken over. */
async function takeOver(page: Page): Promise<void> {
  await page.getByRole('region', { name: 'Highlights' }).hover();
  await expect(page.locator('.swiper-initialized')).toHaveCount(1);
  await page.mouse.move(0, 799);
}

async function activeTitle(page: Page): Promise<string> {
  return page.locator('.swiper-slide-active h2').innerText();
}

test('the first slide is server-rendered and in view without JavaScript', async ({ browser }) => {
  const context = await browser.newContext({ javaScriptEnabled: false, viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto('/');
  const carousel = page.getByRole('region', { name: 'Highlights' });
  const box = await carousel.locator('.swiper').boundingBox();
  const first = await carousel.locator('h2', { hasText: TITLES[0] }).boundingBox();
  const second = await carousel.locator('h2', { hasText: TITLES[1] }).boundingBox();
  expect(box && first && second).toBeTruthy();
  expect(first!.x).toBeGreaterThanOrEqual(box!.x);
  expect(first!.x + first!.width).toBeLessThanOrEqual(box!.x + box!.width);
  expect(second!.x).toBeGreaterThanOrEqual(box!.x + box!.width);
  await expect(carousel.getByRole('img', { name: /browser windows/ })).toBeVisible();
  await context.close();
});

test('the first image is the largest paint, carried inside the HTML', async ({ page }) => {
  await page.goto('/');
  const hero = page
    .locator('.swiper-slide')
    .first()
    .getByRole('img', { name: /browser windows/ });
  // The first image needs no request (docs/performance.md): the stylesheet in the HTML draws it.
  expect(await hero.evaluate((element) => getComputedStyle(element).backgroundImage)).toMatch(/^url\("data:image\/svg\+xml,/);
  // The later slides' images load lazily.
  const second = page.locator('.swiper-slide').nth(1).locator('img');
  await expect(second).toHaveAttribute('src', '/images/slide-rollouts.svg');
  await expect(second).toHaveAttribute('loading', 'lazy');
  const lcpIsFirstImage = await page.evaluate(
    () =>
      new Promise<boolean>((resolve) => {
        new PerformanceObserver((list) => {
          const entries = list.getEntries() as (PerformanceEntry & { element?: Element | null })[];
          resolve(entries[entries.length - 1]?.element === document.querySelector('.swiper-slide [role="img"]'));
        }).observe({ type: 'largest-contentful-paint', buffered: true });
      }),
  );
  expect(lcpIsFirstImage).toBe(true);
});

test('Swiper is not part of the first load: it comes when the visitor reaches for the carousel', async ({ page }) => {
  await page.goto('/');
  await page.waitForLoadState('networkidle');
  await expect(page.locator('.swiper-initialized')).toHaveCount(0);
  await page.getByRole('region', { name: 'Highlights' }).hover();
  await expect(page.locator('.swiper-initialized')).toHaveCount(1);
});

test('Swiper arrives on a page whose main thread is never idle', async ({ page }) => {
  // A browser that never finds an idle moment: an idle callback runs only when its timeout comes.
  await page.addInitScript(() => {
    window.requestIdleCallback = (callback, options) =>
      options?.timeout ? window.setTimeout(() => callback({ didTimeout: true, timeRemaining: () => 0 }), options.timeout) : 0;
  });
  await page.goto('/');
  await expect(page.locator('.swiper-initialized')).toHaveCount(1, { timeout: 10_000 });
});

for (const viewport of [
  { width: 1280, height: 800 },
  { width: 412, height: 823 },
]) {
  test(`Swiper takes over without shifting the layout, ${viewport.width} px wide, under CPU and network throttling`, async ({
    browser,
  }) => {
    const context = await browser.newContext({ viewport });
    const page = await context.newPage();
    await throttle(page);
    await page.goto('/');
    // From the load event on: the page's own arrival is tests/e2e/layout-stability.spec.ts's.
    await recordLayoutShiftsFromNow(page);
    await takeOver(page);
    await page.waitForTimeout(500);
    expect(await recordedLayoutShifts(page)).toEqual([]);
    await context.close();
  });
}

test('buttons, labelled pagination and keyboard arrows move between slides, looping', async ({ browser }) => {
  // Reduced motion makes each move instant and keeps autoplay out of the way.
  const context = await browser.newContext({ reducedMotion: 'reduce', viewport: { width: 1280, height: 800 } });
  const page = await context.newPage();
  await page.goto('/');
  const carousel = page.getByRole('region', { name: 'Highlights' });
  await takeOver(page);
  expect(await activeTitle(page)).toBe(TITLES[0]);

  await carousel.getByRole('button', { name: 'Next slide' }).click();
  await expect.poll(() => activeTitle(page)).toBe(TITLES[1]);
  await carousel.getByRole('button', { name: 'Previous slide' }).click();
  await expect.poll(() => activeTitle(page)).toBe(TITLES[0]);
  await carousel.getByRole('button', { name: 'Previous slide' }).click();
  await expect.poll(() => activeTitle(page)).toBe(TITLES[2]);

  for (const index of [1, 2, 3]) {
    await expect(carousel.getByRole('button', { name: `Go to slide ${index}` })).toHaveCount(1);
  }
  await carousel.getByRole('button', { name: 'Go to slide 2' }).click();
  await expect.poll(() => activeTitle(page)).toBe(TITLES[1]);

  await page.keyboard.press('ArrowRight');
  await expect.poll(() => activeTitle(page)).toBe(TITLES[2]);
  await page.keyboard.press('ArrowRight');
  await expect.poll(() => activeTitle(page)).toBe(TITLES[0]);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => activeTitle(page)).toBe(TITLES[2]);
  // Each slide keeps the server's label of its place, whichever order the loop has put them in.
  for (const [index, title] of TITLES.entries()) {
    await expect(carousel.getByRole('group', { name: `Slide ${index + 1} of 3` }).getByRole('heading')).toHaveText(title);
  }
  await context.close();
});

test('autoplay advances on its own, and pauses while the pointer is over it', async ({ page }) => {
  test.setTimeout(40_000);
  await page.goto('/');
  // Untouched, Swiper arrives once the page has been idle for a few seconds.
  await expect(page.locator('.swiper-initialized')).toHaveCount(1, { timeout: 10_000 });
  await expect.poll(() => activeTitle(page), { timeout: 9_000 }).toBe(TITLES[1]);
  await page.locator('.swiper').hover();
  const hovered = await activeTitle(page);
  await page.waitForTimeout(8_000);
  expect(await activeTitle(page)).toBe(hovered);
});

test('a tap is no hover: autoplay goes on after the visitor taps a slide', async ({ browser }) => {
  test.setTimeout(40_000);
  const context = await browser.newContext({ hasTouch: true, isMobile: true, viewport: { width: 412, height: 823 } });
  const page = await context.newPage();
  await page.goto('/');
  await page.locator('.swiper-slide').first().locator('p').tap();
  await expect(page.locator('.swiper-initialized')).toHaveCount(1);
  await expect.poll(() => activeTitle(page), { timeout: 10_000 }).toBe(TITLES[1]);
  await context.close();
});

test('autoplay holds while the page is hidden and goes on once it is shown', async ({ page }) => {
  test.setTimeout(40_000);
  await page.goto('/');
  await expect(page.locator('.swiper-initialized')).toHaveCount(1, { timeout: 10_000 });
  const setHidden = (hidden: boolean) =>
    page.evaluate((hidden) => {
      Object.defineProperty(document, 'hidden', { value: hidden, configurable: true });
      Object.defineProperty(document, 'visibilityState', { value: hidden ? 'hidden' : 'visible', configurable: true });
      document.dispatchEvent(new Event('visibilitychange'));
    }, hidden);
  await setHidden(true);
  await page.waitForTimeout(8_000);
  expect(await activeTitle(page)).toBe(TITLES[0]);
  await setHidden(false);
  await expect.poll(() => activeTitle(page), { timeout: 9_000 }).toBe(TITLES[1]);
});

test('autoplay asks for no animation frame between its turns', async ({ page }) => {
  test.setTimeout(40_000);
  // Swiper's own autoplay asked for a frame at every refresh of the display while it played.
  await page.addInitScript(() => {
    const frames = { asked: 0 };
    (window as unknown as { animationFrames: typeof frames }).animationFrames = frames;
    const request = window.requestAnimationFrame.bind(window);
    window.requestAnimationFrame = (callback) => {
      frames.asked += 1;
      return request(callback);
    };
  });
  await page.goto('/');
  await expect(page.locator('.swiper-initialized')).toHaveCount(1, { timeout: 10_000 });
  const asked = () => page.evaluate(() => (window as unknown as { animationFrames: { asked: number } }).animationFrames.asked);
  // Two seconds in the middle of the six between Swiper's arrival and its first turn.
  await page.waitForTimeout(1_000);
  const before = await asked();
  await page.waitForTimeout(2_000);
  expect((await asked()) - before).toBeLessThan(10);
});

test('autoplay pauses while focus is inside', async ({ page }) => {
  test.setTimeout(30_000);
  await page.goto('/');
  await page.getByRole('button', { name: 'Next slide' }).focus();
  await expect(page.locator('.swiper-initialized')).toHaveCount(1);
  const focused = await activeTitle(page);
  await page.waitForTimeout(8_000);
  expect(await activeTitle(page)).toBe(focused);
});

test.describe('with reduced motion', () => {
  test.use({ reducedMotion: 'reduce' });

  test('autoplay stays off', async ({ page }) => {
    test.setTimeout(30_000);
    await page.goto('/');
    await expect(page.locator('.swiper-initialized')).toHaveCount(1, { timeout: 10_000 });
    await page.waitForTimeout(8_000);
    expect(await activeTitle(page)).toBe(TITLES[0]);
  });
});
