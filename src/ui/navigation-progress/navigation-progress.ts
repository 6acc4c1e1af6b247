import { HIDDEN_STATE, LoadingBarMachine, type LoadingBarState } from './loading-bar-machine';

const listeners = new Set<() => void>();
const machine = new LoadingBarMachine(() => listeners.forEach((listener) => listener()));

/** The path and query the page shows: the router calls a move to it no navigation. */
let renderedRoute = '';

function routeKey(url: URL | Location): string {
  return `${url.pathname}${url.search}`;
}

/** The one navigation in progress, shared by the loading bar and the overlay. */
export const navigationProgress = {
  fail: () => machine.fail(),
  /** The router started a navigation (push, replace or back/forward) to `href`. */
  routerTransitionStarted(href: string): void {
    // Until the first page's render is recorded, the browser still shows that page.
    const shownRoute = renderedRoute || routeKey(window.location);
    if (routeKey(new URL(href, window.location.href)) !== shownRoute) machine.start();
  },
  /** The router rendered the route the browser now shows; true when it came by a client navigation, not the page load. */
  routeRendered(): boolean {
    const navigated = renderedRoute !== '';
    renderedRoute = routeKey(window.location);
    // The first page's render ends nothing: a click right after hydration may have begun a
    // navigation before it was recorded, and that navigation is still under way.
    if (navigated) machine.finish();
    return navigated;
  },
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): LoadingBarState => machine.current,
  getServerSnapshot: (): LoadingBarState => HIDDEN_STATE,
};
