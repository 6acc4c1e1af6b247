import { useSyncExternalStore } from 'react';

function subscribe(onLoad: () => void): () => void {
  window.addEventListener('load', onLoad);
  return () => window.removeEventListener('load', onLoad);
}

/**
 * True once the page's load event has fired (false on the server and while
 * hydrating). A component that renders a `lazy` part only then keeps that
 * part's code out of what the page loads before its load event.
 */
export function useLoadEventFired(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => document.readyState === 'complete',
    () => false,
  );
}
