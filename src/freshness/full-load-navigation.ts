/** How the router moves, as Next reports it to `onRouterTransitionStart`. */
export type RouterNavigationType = 'push' | 'replace' | 'traverse';

/** The part of the Navigation API (Baseline 2026) used here; TypeScript's DOM library lacks it. */
interface NavigateEvents {
  addEventListener(type: 'navigate', listener: (event: { navigationType: string; preventDefault(): void }) => void): void;
}

let newBuildOut = false;
/** A full load of this document's next page is under way. */
let leaving = false;
/** Set while this module itself starts a load, which the guard below lets through. */
let startingLoad = false;

/**
 * A new build is out: every navigation the router starts from now on is a
 * full load. Once one is under way, the router's own moves are cancelled: the
 * history entry it writes for the page would be a second entry for the same
 * move, and Next's own hard navigation, when the new build answers its
 * payload request, goes to the page without its #fragment.
 */
export function loadNavigationsInFull(): void {
  if (newBuildOut) return;
  newBuildOut = true;
  const navigation = (window as Window & { navigation?: NavigateEvents }).navigation;
  // Without the Navigation API the router's moves race the load; the load usually commits first.
  navigation?.addEventListener('navigate', (event) => {
    if (leaving && !startingLoad && event.navigationType !== 'traverse') event.preventDefault();
  });
}

/**
 * The router started a navigation (src/instrumentation-client.ts). Once a new
 * build is out, the page it goes to is loaded in full instead, so the new
 * build's HTML and assets arrive together. Back and forward have already
 * moved to their entry: it is reloaded.
 */
export function routerNavigationStarted(href: string, type: RouterNavigationType): void {
  if (!newBuildOut) return;
  leaving = true;
  startingLoad = true;
  try {
    if (type === 'traverse') window.location.reload();
    else loadDocument(new URL(href, window.location.href), type);
  } finally {
    startingLoad = false;
  }
}

/** A full load of `target`, even when it differs from this page by its #fragment only. */
function loadDocument(target: URL, type: 'push' | 'replace'): void {
  const here = window.location;
  // A move to a #fragment of this very page keeps the document: it is reloaded there.
  const fragmentOnly = target.hash !== '' && target.pathname === here.pathname && target.search === here.search;
  if (type === 'push') here.assign(target.href);
  else here.replace(target.href);
  if (fragmentOnly) here.reload();
}
