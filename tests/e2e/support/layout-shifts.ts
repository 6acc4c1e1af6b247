import type { Page } from '@playwright/test';

type ShiftWindow = Window & { layoutShifts?: string[] };

/** Runs in the page: records each layout shift as its score and what moved (element, text, from and to). */
function observeLayoutShifts(buffered: boolean): void {
  const shifts: string[] = [];
  (window as ShiftWindow).layoutShifts = shifts;
  const rect = (r: DOMRectReadOnly) => `(${Math.round(r.x)}, ${Math.round(r.y)}, ${Math.round(r.width)}×${Math.round(r.height)})`;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      sources: { node: Node | null; previousRect: DOMRectReadOnly; currentRect: DOMRectReadOnly }[];
    })[]) {
      const moved = entry.sources.map(({ node, previousRect, currentRect }) => {
        const element = node instanceof Element ? node : node?.parentElement;
        const name = element ? `${element.tagName.toLowerCase()}.${[...element.classList].join('.')}` : 'a removed node';
        const text = (node?.textContent ?? '').trim().slice(0, 40);
        return `${name} "${text}" from ${rect(previousRect)} to ${rect(currentRect)}`;
      });
      shifts.push(`${entry.value.toFixed(4)} at ${Math.round(entry.startTime)} ms: ${moved.join('; ')}`);
    }
  }).observe({ type: 'layout-shift', buffered });
}

/** Records every layout shift of the next document `page` loads, from its first paint on. */
export async function recordLayoutShiftsFromStart(page: Page): Promise<void> {
  await page.addInitScript(observeLayoutShifts, true);
}

/** Records the layout shifts of the document `page` shows, from now on. */
export async function recordLayoutShiftsFromNow(page: Page): Promise<void> {
  await page.evaluate(observeLayoutShifts, false);
}

/** The shifts recorded so far, each with its score and the elements it moved and where. */
export async function recordedLayoutShifts(page: Page): Promise<string[]> {
  return page.evaluate(() => (window as ShiftWindow).layoutShifts ?? []);
}
