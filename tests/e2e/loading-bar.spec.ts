import { expect, test } from '@playwright/test';
import { recordAttribute, recordedValues, slowClientNavigations } from './support/slow-navigation';

test.use({ viewport: { width: 1280, height: 800 } });

const BAR = '[data-testid="loading-bar"]';

test('a slow navigation shows the bar, which completes and hides', async ({ page }) => {
  await slowClientNavigations(page, 1500);
  await page.goto('/e2e-fixtures/crash');
  const bar = page.locator(BAR).first();
  await expect(bar).toHaveAttribute('data-visible', 'false');
  await page
    .locator('header')
    .getByRole('link', { name: /Meridian/ })
    .click();
  await expect(bar).toHaveAttribute('data-visible', 'true');
  await expect(bar).toHaveAttribute('data-phase', 'progressing');
  await expect(bar).toHaveCSS('height', '2px');
  await expect(bar).toHaveCSS('background-color', 'rgb(74, 93, 255)');
  await expect(page).toHaveURL(/\/$/);
  await expect(bar).toHaveAttribute('data-phase', /finished|hidden/);
  await expect(bar).toHaveAttribute('data-visible', 'false', { timeout: 3_000 });
  await expect(bar).toHaveAttribute('data-phase', 'hidden', { timeout: 3_000 });
});

test('a fast navigation never shows the bar', async ({ page }) => {
  await page.goto('/e2e-fixtures/crash');
  // Let the router prefetch the target, so the navigation itself is instant.
  await page.waitForLoadState('networkidle');
  await recordAttribute(page, BAR, 'data-visible');
  await page
    .locator('header')
    .getByRole('link', { name: /Meridian/ })
    .click();
  await expect(page).toHaveURL(/\/$/);
  await page.waitForTimeout(600);
  expect(await recordedValues(page)).not.toContain('true');
});
