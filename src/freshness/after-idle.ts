/** The manifest, the first poll and the payload prefetches wait this long after the browser is idle. */
export const AFTER_IDLE_DELAY_MS = 1000;

/** Runs `run` `delayMs` after the browser is first idle; returns the cancel. */
export function afterIdle(delayMs: number, run: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const idle = window.requestIdleCallback ? window.requestIdleCallback(() => (timer = setTimeout(run, delayMs))) : undefined;
  if (idle === undefined) timer = setTimeout(run, delayMs);
  return () => {
    if (idle !== undefined) window.cancelIdleCallback(idle);
    clearTimeout(timer);
  };
}
