import { expect, test } from '@playwright/test';

/**
 * The structural causes of a fast first paint, never a timing. Each page is
 * read as the server sends it, with JavaScript off, so nothing a script does later can
 * hide what the visitor sees first.
 */
test.use({ viewport: { width: 412, height: 823 }, javaScriptEnabled: false });

const PAGES = ['/', '/ja', '/zh-CN'];

for (const path of PAGES) {
  test(`${path}: the hero image is in the server HTML with its size, and painted without JavaScript`, async ({ page }) => {
    await page.goto(path);
    const hero = page.locator('.swiper-slide').first().getByRole('img');
    // Drawn by the stylesheet the HTML carries: no request stands between the document and this paint.
    expect(await hero.evaluate((element) => getComputedStyle(element).backgroundImage)).toMatch(/^url\("data:image\/svg\+xml,/);
    await expect(hero).toBeInViewport();
    const box = await hero.boundingBox();
    expect(box?.height).toBeGreaterThan(0);
    expect(Math.round((box?.width ?? 0) / 2)).toBe(Math.round(box?.height ?? -1));
  });

  test(`${path}: no first-screen content is hidden before hydration`, async ({ page }) => {
    await page.goto(path);
    const hidden = await page.evaluate(() => {
      const found: string[] = [];
      for (const element of document.querySelectorAll('header, header *, main, main *, .swiper-slide:first-child *')) {
        const box = element.getBoundingClientRect();
        if (box.top >= window.innerHeight || box.width === 0) continue; // below the first screen, or not laid out
        if (element.closest('[hidden], [aria-hidden="true"], .visually-hidden')) continue; // hidden on purpose, not by a fade
        const style = getComputedStyle(element);
        if (style.opacity === '0' || style.visibility === 'hidden') found.push(`${element.tagName}.${element.className}`);
      }
      return found;
    });
    expect(hidden).toEqual([]);
  });

  test(`${path}: at most one render-blocking stylesheet`, async ({ page }) => {
    await page.goto(path);
    const blocking = await page.evaluate(
      () =>
        [...document.querySelectorAll('head link[rel~="stylesheet"]')].filter(
          (link) =>
            !link.hasAttribute('disabled') && !(link.getAttribute('media') && !matchMedia(link.getAttribute('media') as string).matches),
        ).length,
    );
    expect(blocking).toBeLessThanOrEqual(1);
  });
}

test.describe('with JavaScript', () => {
  test.use({ javaScriptEnabled: true });

  for (const path of PAGES) {
    test(`${path}: the sections after the first and the footer wait for the viewport, not the first paint`, async ({ page }) => {
      // content-visibility: auto says when it skips an element's contents and when it lays them out.
      await page.addInitScript(() => {
        const states: string[] = [];
        (window as unknown as { skipStates: string[] }).skipStates = states;
        document.addEventListener(
          'contentvisibilityautostatechange',
          (event) =>
            states.push(
              `${(event.target as Element).id || (event.target as Element).localName} ${(event as Event & { skipped: boolean }).skipped ? 'skipped' : 'shown'}`,
            ),
          true,
        );
      });
      const states = () => page.evaluate(() => (window as unknown as { skipStates: string[] }).skipStates);
      await page.goto(path);
      // Far below the first screen, the footer's contents are skipped until it nears the viewport;
      // the sections after the first are too when they lie far enough below it. The first section
      // shows on the first screen of most phones and desktops: it is never skipped.
      await expect.poll(states).toContain('footer skipped');
      expect((await states()).filter((state) => state.startsWith('footer'))).toEqual(['footer skipped']);
      expect((await states()).map((state) => state.split(' ')[0])).toEqual(
        expect.arrayContaining(['rollouts', 'observability', 'languages']),
      );
      expect((await states()).filter((state) => state.startsWith('features'))).toEqual([]);
      await page.locator('footer').scrollIntoViewIfNeeded();
      await expect.poll(states).toContain('footer shown');
      await expect(page.locator('footer').getByRole('link', { name: 'English' })).toBeVisible();
    });
  }

  test("Swiper's code is not among the scripts loaded by the load event", async ({ page }) => {
    const scripts: string[] = [];
    page.on('response', (response) => {
      if (response.request().resourceType() === 'script') scripts.push(response.url());
    });
    await page.goto('/', { waitUntil: 'load' });
    const loaded = [...scripts];
    expect(loaded.length).toBeGreaterThan(0);
    const bodies = await Promise.all(loaded.map((url) => page.request.get(url).then((r) => r.text())));
    // Class names only Swiper's own code holds (our carousel names swiper-slide and swiper-wrapper, nothing else).
    const withSwiper = loaded.filter((_, index) => /swiper-no-swiping|swiper-lazy-preloader/.test(bodies[index] ?? ''));
    expect(withSwiper).toEqual([]);
  });
});
