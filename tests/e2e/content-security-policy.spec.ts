import { expect, test, type Page } from '@playwright/test';

// The script policy has no 'unsafe-inline': pages from memory carry the hashes of their inline
// scripts, the 404 template's are hashed per answer, and pages Next renders carry a nonce. The
// browser must refuse nothing, and the site must work: hydrated, navigable, between locales.

test.use({ viewport: { width: 1280, height: 800 } });

let violations: string[];

test.beforeEach(async ({ page }) => {
  violations = [];
  await page.exposeFunction('reportPolicyViolation', (violation: string) => violations.push(violation));
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (event) => {
      const report = (window as unknown as { reportPolicyViolation: (violation: string) => void }).reportPolicyViolation;
      report(
        `${event.effectiveDirective} blocked ${event.blockedURI || 'inline'} in ${event.sourceFile}:${event.lineNumber} (${event.sample})`,
      );
    });
  });
  page.on('console', (message) => {
    if (/Content.Security.Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
});

test.afterEach(() => {
  expect(violations).toEqual([]);
});

/** The language switcher's button, by the language it shows (its label is in that language). */
const switcher = (page: Page, language: string) => page.locator('header').getByRole('button', { name: new RegExp(`${language}$`) });

/** The page's own scripts ran: React hydrated the language switcher, which opens and closes. */
async function expectHydrated(page: Page, language: string): Promise<void> {
  const button = switcher(page, language);
  await expect(button).toHaveAttribute('aria-expanded', 'false');
  await button.click();
  await expect(button).toHaveAttribute('aria-expanded', 'true');
  await page.keyboard.press('Escape');
  await expect(button).toHaveAttribute('aria-expanded', 'false');
}

for (const [path, language] of [
  ['/', 'English'],
  ['/ja', '日本語'],
  ['/zh-CN', '简体中文'],
] as const) {
  test(`${path} runs its inline scripts, by hash`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.headers()['content-security-policy']).toMatch(/script-src 'self'( 'sha256-[A-Za-z0-9+/=]+')+;/);
    await expectHydrated(page, language);
  });
}

for (const [path, kind] of [
  ['/no/such/page', 'from the template'],
  ['/ja/no/such/page', 'from the template, in Japanese'],
  ['/ja/no/such/page?from=test', 'rendered by Next'],
  ['/api/no-such-api', 'rendered by Next for an API path'],
] as const) {
  test(`a 404 ${kind} (${path}) runs and leads home`, async ({ page }) => {
    const response = await page.goto(path);
    expect(response?.status()).toBe(404);
    // The inline router payload ran: the router is there to take the link home.
    await expect.poll(() => page.evaluate(() => Array.isArray((self as unknown as { __next_f?: unknown[] }).__next_f))).toBe(true);
    await page.locator('main a').click();
    await expect(page.locator('header').getByRole('button', { name: /(English|日本語|简体中文)$/ })).toBeVisible();
  });
}

test('the error page of a failed render (500, by Next) runs', async ({ page }) => {
  const response = await page.goto('/e2e-fixtures/crash?mode=server');
  expect(response?.status()).toBe(500);
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Internal Server Error');
  await expect.poll(() => page.evaluate(() => Array.isArray((self as unknown as { __next_f?: unknown[] }).__next_f))).toBe(true);
  await page.getByRole('link', { name: 'Back to home' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expectHydrated(page, 'English');
});

test('the error page of a crash in the browser shows, and "try again" clears it', async ({ page }) => {
  await page.goto('/e2e-fixtures/crash');
  await page.getByRole('button', { name: 'Crash with 503' }).click();
  await expect(page.getByText('Error 503')).toBeVisible();
  await page.getByRole('button', { name: 'Try again' }).click();
  await expect(page.getByRole('button', { name: 'Crash with 503' })).toBeVisible();
});

test('client navigations between the locales, and back and forward, run every page they bring', async ({ page }) => {
  await page.goto('/');
  await expectHydrated(page, 'English');
  for (const [language, next, url] of [
    ['English', '日本語', /\/ja$/],
    ['日本語', '简体中文', /\/zh-CN$/],
    ['简体中文', 'English', /\/$/],
  ] as const) {
    await switcher(page, language).click();
    await page.getByRole('menuitemradio', { name: next }).click();
    await expect(page).toHaveURL(url);
    await expectHydrated(page, next);
  }
  await page.locator('footer').getByRole('link', { name: '日本語' }).click();
  await expect(page).toHaveURL(/\/ja$/);
  await page.goBack();
  await expect(page).toHaveURL(/\/$/);
  await page.goForward();
  await expect(page).toHaveURL(/\/ja$/);
  await expectHydrated(page, '日本語');
});
