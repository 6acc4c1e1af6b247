import { useEffect, useState, useSyncExternalStore } from 'react';

/** A main thread kept busy (a slow phone, a heavy tab beside) still settles after this long. */
const MAX_IDLE_WAIT_MS = 2000;

function subscribe(onLoad: () => void): () => void {
  window.addEventListener('load', onLoad);
  return () => window.removeEventListener('load', onLoad);
}

/**
 * True once the page's load event has fired, the browser has had an idle moment (or waited
 * MAX_IDLE_WAIT_MS for one) and `delayMs` more have passed (false on the server and while hydrating). Code that only
 * matters once the page is in use (reporting, freshness, the carousel's Swiper) waits for
 * this: a component that renders a `lazy` part, or imports one, only then keeps that code
 * out of what the page loads and runs while its first screen arrives and hydrates.
 */
export function usePageSettled(delayMs: number): boolean {
  const loaded = useSyncExternalStore(
    subscribe,
    () => document.readyState === 'complete',
    () => false,
  );
  const [settled, setSettled] = useState(false);
  useEffect(() => {
    if (!loaded) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const settle = () => (timer = setTimeout(() => setSettled(true), delayMs));
    // Safari has no requestIdleCallback: there the timer alone decides.
    const idle = window.requestIdleCallback ? window.requestIdleCallback(settle, { timeout: MAX_IDLE_WAIT_MS }) : undefined;
    if (idle === undefined) settle();
    return () => {
      if (idle !== undefined) window.cancelIdleCallback(idle);
      clearTimeout(timer);
    };
  }, [loaded, delayMs]);
  return settled;
}
