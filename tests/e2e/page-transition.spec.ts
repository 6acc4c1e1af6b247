import { expect, test, type Page } from '@playwright/test';

test.use({ viewport: { width: 1280, height: 800 } });

/** Records every Web Animation the page starts on `main`, with its duration. */
async function recordMainAnimations(page: Page): Promise<() => Promise<number[]>> {
  await page.addInitScript(() => {
    const durations: number[] = [];
    Object.assign(window, { mainAnimations: durations });
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, keyframes, options) {
      if (this.id === 'main') durations.push(typeof options === 'number' ? options : Number(options?.duration));
      return animate.call(this, keyframes, options);
    };
  });
  return () => page.evaluate(() => (window as Window & { mainAnimations?: number[] }).mainAnimations ?? []);
}

async function switchToJapanese(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Language: English' }).click();
  await page.getByRole('menuitemradio', { name: '日本語' }).click();
  await expect(page).toHaveURL(/\/ja$/);
  await expect(page.locator('html')).toHaveAttribute('lang', 'ja');
}

test('a client navigation fades the new page in over 100 ms; the first page paints at once', async ({ page }) => {
  const mainAnimations = await recordMainAnimations(page);
  await page.goto('/');
  await page.waitForTimeout(300);
  expect(await mainAnimations()).toEqual([]);
  await switchToJapanese(page);
  await expect.poll(mainAnimations).toEqual([100]);
});

test('with reduced motion a new page never fades', async ({ page }) => {
  await page.emulateMedia({ reducedMotion: 'reduce' });
  const mainAnimations = await recordMainAnimations(page);
  await page.goto('/');
  await switchToJapanese(page);
  await page.waitForTimeout(300);
  expect(await mainAnimations()).toEqual([]);
});
