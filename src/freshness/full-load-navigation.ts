/**
 * Once the app knows it is outdated, every navigation the visitor starts
 * becomes a full document load, so the new build's HTML and assets arrive
 * together. Links are caught before React sees the click: the default is
 * prevented, so next/link stands aside (other click handlers still run, the
 * language switcher still writes its cookie), and the page is loaded once
 * they are done. Back and forward reload the entry the browser moved to.
 */
export function installFullLoadNavigation(): () => void {
  /** Set once a load is on its way: the #hash change of a same-page link fires popstate too. */
  let leaving = false;
  const onClick = (event: MouseEvent) => {
    if (event.defaultPrevented || event.button !== 0 || event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return;
    const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null;
    if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return;
    if (anchor.target && anchor.target !== '_self') return;
    const target = new URL(anchor.href, window.location.href);
    if (target.origin !== window.location.origin) return;
    event.preventDefault();
    setTimeout(() => {
      leaving = true;
      loadDocument(target);
    }, 0);
  };
  const onPopState = () => {
    if (leaving) return;
    leaving = true;
    window.location.reload();
  };
  window.addEventListener('click', onClick, { capture: true });
  window.addEventListener('popstate', onPopState);
  return () => {
    window.removeEventListener('click', onClick, { capture: true });
    window.removeEventListener('popstate', onPopState);
  };
}

/** A full load of `target`, even when it differs from this page by its #hash only. */
function loadDocument(target: URL): void {
  const here = window.location;
  if (target.pathname === here.pathname && target.search === here.search) {
    here.hash = target.hash;
    here.reload();
    return;
  }
  here.assign(target.href);
}
