import type { Page } from '@playwright/test';

/**
 * Resolves once React has hydrated the element matching `selector`: it then holds React's
 * props. A click before that is the browser's own (a link loads its target in full), which
 * on a loaded machine can come well after the load event.
 */
export async function waitForHydration(page: Page, selector: string): Promise<void> {
  await page.waitForFunction((sel) => {
    const element = document.querySelector(sel);
    return element !== null && Object.keys(element).some((key) => key.startsWith('__reactProps$'));
  }, selector);
}
