import type { Page } from '@playwright/test';

/**
 * Delays the router's payload requests (navigations and their prefetches),
 * leaving document loads alone, so a client navigation lasts about `delayMs`.
 * Only those requests are intercepted (the router marks each with `_rsc`): once, on
 * a loaded machine, a page whose every request went through the interception had
 * not hydrated after 30 s.
 */
export async function slowClientNavigations(page: Page, delayMs: number): Promise<void> {
  await page.route(
    (url) => url.searchParams.has('_rsc'),
    async (route) => {
      await new Promise((resolve) => setTimeout(resolve, delayMs));
      await route.fallback();
    },
  );
}

/** Delays document loads, so whatever the page does while one is under way comes first. */
export async function slowDocumentLoads(page: Page, delayMs: number): Promise<void> {
  await page.route('**/*', async (route) => {
    if (route.request().isNavigationRequest()) await new Promise((resolve) => setTimeout(resolve, delayMs));
    await route.fallback();
  });
}

/** Records, in the page, every time the element matching `selector` shows `attribute="true"`. */
export async function recordAttribute(page: Page, selector: string, attribute: string): Promise<void> {
  await page.evaluate(
    ([sel, attr]) => {
      const element = document.querySelector(sel as string);
      const seen: string[] = [];
      (window as unknown as { __seen: string[] }).__seen = seen;
      if (!element) return;
      new MutationObserver(() => seen.push(element.getAttribute(attr as string) ?? '')).observe(element, {
        attributes: true,
        attributeFilter: [attr as string],
      });
    },
    [selector, attribute],
  );
}

export async function recordedValues(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as unknown as { __seen: string[] }).__seen);
}
