/** The parts of a click, DOM or React, that say what the visitor asked for. */
type ClickKeys = Pick<MouseEvent, 'button' | 'metaKey' | 'ctrlKey' | 'shiftKey' | 'altKey'>;

/**
 * A click on `link` the page may take over: the main button, no modifier key (new tab
 * or window, download), on a link that opens in this tab.
 */
export function isPlainClick({ button, metaKey, ctrlKey, shiftKey, altKey }: ClickKeys, link: HTMLAnchorElement): boolean {
  const inThisTab = (!link.target || link.target === '_self') && !link.hasAttribute('download');
  return button === 0 && !metaKey && !ctrlKey && !shiftKey && !altKey && inThisTab;
}
