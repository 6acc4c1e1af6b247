import { expect, test, type Page } from '@playwright/test';

test.use({ viewport: { width: 1280, height: 800 } });

/**
 * The prerendered pages' inline page data leaves out the stylesheet text the HTML
 * already carries (src/build/inline-page-data.mjs): React finds those stylesheets in
 * the document by their href. Each must still hold its rules once React has
 * hydrated, and after client navigations and an error boundary that name them again.
 */
async function stylesheetsHoldRules(page: Page): Promise<void> {
  const sheets = await page.evaluate(() =>
    [...document.querySelectorAll('style[data-precedence]')].map((style) => ({
      href: style.getAttribute('data-href'),
      rules: (style as HTMLStyleElement).sheet?.cssRules.length ?? 0,
    })),
  );
  expect(sheets.length).toBeGreaterThan(0);
  for (const sheet of sheets) expect(sheet.rules, `rules of ${sheet.href}`).toBeGreaterThan(0);
}

test('the page data carries no stylesheet text the HTML has, and the page keeps its styles', async ({ page, request }) => {
  const html = await (await request.get('/ja')).text();
  const css = /<style[^>]*data-href[^>]*>([^<]{200})/.exec(html)?.[1];
  expect(css).toBeDefined();
  // Only once in the document: in its <style>, not again in the inline page data.
  expect(html.split(css as string)).toHaveLength(2);

  await page.goto('/ja');
  const header = page.locator('header');
  await expect(header).toHaveCSS('position', 'sticky');
  await page.getByRole('button', { name: '言語：日本語' }).click();
  await stylesheetsHoldRules(page);

  await page.getByRole('menuitemradio', { name: 'English' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(header).toHaveCSS('position', 'sticky');
  await stylesheetsHoldRules(page);
});

test('an error boundary that names the page stylesheets again keeps them', async ({ page }) => {
  await page.goto('/e2e-fixtures/crash');
  await page.getByRole('button', { name: 'Crash with 503' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
  await expect(page.locator('main')).toHaveCSS('display', 'grid');
  await stylesheetsHoldRules(page);
});
