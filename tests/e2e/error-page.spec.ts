import { expect, test } from '@playwright/test';
import { rawGet } from './support/http';

const base = () => process.env.MERIDIAN_E2E_URL as string;

test('a failed server render answers 500 with the error page', async ({ page }) => {
  const raw = await rawGet(base(), '/e2e-fixtures/crash?mode=server');
  expect(raw.status).toBe(500);
  await page.goto('/e2e-fixtures/crash?mode=server');
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
  await expect(page.getByText('Error 500')).toBeVisible();
  await expect(page.locator('header')).toHaveCount(0);
  await expect(page.locator('footer')).toHaveCount(0);
});

test('an error with a status shows it, and "try again" clears it', async ({ page }) => {
  await page.goto('/e2e-fixtures/crash');
  await page.getByRole('button', { name: 'Crash with 503' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
  await expect(page.getByText('Error 503')).toBeVisible();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('button', { name: 'Crash with 503' })).toBeVisible();
});

test('a 404 error reads "Page Not Found"', async ({ page }) => {
  await page.goto('/e2e-fixtures/crash');
  await page.getByRole('button', { name: 'Crash with 404' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Page Not Found');
});

test('"back to home" leaves the error for the locale home, a fresh page load', async ({ page }) => {
  await page.goto('/ja/e2e-fixtures/crash');
  await page.getByRole('button', { name: 'Crash with 503' }).click();
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('サーバー内部エラー');
  await page.evaluate(() => Object.assign(window, { beforeHome: true }));
  await page.getByRole('link', { name: 'ホームに戻る' }).click();
  await expect(page).toHaveURL(/\/ja$/);
  await expect(page.getByRole('region', { name: 'ハイライト' })).toBeVisible();
  expect(await page.evaluate(() => 'beforeHome' in window)).toBe(false);
});
