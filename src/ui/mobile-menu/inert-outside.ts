/**
 * Makes everything on the page but `kept` (and its ancestors) inert: out of
 * reach of Tab, clicks and assistive technology. Returns the undo, which
 * leaves alone whatever was inert before.
 */
export function makeRestOfPageInert(kept: HTMLElement): () => void {
  const madeInert: HTMLElement[] = [];
  for (let node: HTMLElement = kept; node.parentElement && node !== document.body; node = node.parentElement) {
    for (const sibling of Array.from(node.parentElement.children)) {
      if (sibling === node || !(sibling instanceof HTMLElement) || sibling.inert) continue;
      sibling.inert = true;
      madeInert.push(sibling);
    }
  }
  return () => madeInert.forEach((element) => (element.inert = false));
}
