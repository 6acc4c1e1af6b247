import { expect, test } from '@playwright/test';

test.use({ viewport: { width: 375, height: 740 } });

test('the menu folds behind a button that opens a modal panel', async ({ page }) => {
  await page.goto('/');
  const button = page.getByRole('button', { name: 'Open menu' });
  const panelId = await button.getAttribute('aria-controls');
  const panel = page.locator(`[id="${panelId}"]`);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(panel).toBeHidden();

  await button.click();
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute('aria-expanded', 'true');
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  await expect(panel.getByRole('link', { name: 'Features' })).toBeVisible();
  await expect(panel.getByRole('button', { name: /Language/ })).toBeVisible();
  await expect(page.locator('html')).toHaveCSS('overflow', 'hidden');
});

test('focus stays inside the open menu', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const dialog = page.getByRole('dialog', { name: 'Menu' });
  await expect(dialog.getByRole('link', { name: 'Features' })).toBeFocused();
  for (let step = 0; step < 12; step += 1) {
    await page.keyboard.press('Tab');
    const inside = await page.evaluate(() => {
      const active = document.activeElement;
      const toggle = document.querySelector('button[aria-controls]');
      const panel = toggle && document.getElementById(toggle.getAttribute('aria-controls') ?? '');
      return active === toggle || Boolean(panel?.contains(active));
    });
    expect(inside, `after ${step + 1} Tab presses`).toBe(true);
  }
});

test('Escape closes the menu and returns focus to the button', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const button = page.getByRole('button', { name: 'Open menu' });
  await expect(button).toBeFocused();
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await expect(page.locator('html')).not.toHaveCSS('overflow', 'hidden');
});

test('an outside click closes the menu', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await page.mouse.click(40, 30);
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
});

test('following a menu link closes the menu', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page.getByRole('dialog').getByRole('link', { name: 'Rollouts' }).click();
  await expect(page).toHaveURL(/#rollouts$/);
  await expect(page.getByRole('dialog')).toHaveCount(0);
});

test('the menu switches language too', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  await page
    .getByRole('dialog')
    .getByRole('button', { name: /Language/ })
    .click();
  await page.getByRole('menuitemradio', { name: '日本語' }).click();
  await expect(page).toHaveURL(/\/ja$/);
  await expect(page.getByRole('button', { name: 'メニューを開く' })).toBeVisible();
});

test('the rest of the page is inert while the menu is open, and only then', async ({ page }) => {
  await page.goto('/');
  const main = page.locator('main').first();
  await expect(main).toHaveJSProperty('inert', false);
  await page.getByRole('button', { name: 'Open menu' }).click();
  await expect(page.getByRole('dialog')).toBeVisible();
  await expect(main).toHaveJSProperty('inert', true);
  await expect(page.getByRole('button', { name: 'Close menu' })).toHaveJSProperty('inert', false);
  await page.keyboard.press('Escape');
  await expect(main).toHaveJSProperty('inert', false);
});

test('Escape in the language menu inside the panel closes that menu only', async ({ page }) => {
  await page.goto('/');
  await page.getByRole('button', { name: 'Open menu' }).click();
  const switcher = page.getByRole('dialog').getByRole('button', { name: /Language/ });
  await switcher.click();
  await expect(page.getByRole('menuitemradio', { name: 'English' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menu')).toBeHidden();
  await expect(switcher).toBeFocused();
  await expect(page.getByRole('dialog', { name: 'Menu' })).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused();
});
