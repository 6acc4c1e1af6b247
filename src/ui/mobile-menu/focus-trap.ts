const FOCUSABLE = 'a[href], button:not([disabled]), input:not([disabled]), select, textarea, [tabindex="0"]';

/** The elements of `container` a visitor can reach with Tab, in order. */
export function focusableElements(container: HTMLElement): HTMLElement[] {
  return Array.from(container.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (element) => element.getClientRects().length > 0,
  );
}

/** Keeps Tab and Shift+Tab cycling through `cycle`. */
export function trapTab(event: KeyboardEvent, cycle: HTMLElement[]): void {
  const first = cycle[0];
  const last = cycle[cycle.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && active === first) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && active === last) {
    event.preventDefault();
    first.focus();
  } else if (!cycle.includes(active as HTMLElement)) {
    event.preventDefault();
    first.focus();
  }
}
