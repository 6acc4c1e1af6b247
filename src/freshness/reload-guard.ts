export const RELOAD_MARKER_KEY = 'meridian:chunk-reload-at';
/** How long after a chunk reload another failure counts as the same one. */
export const RELOAD_GUARD_MS = 10_000;

export type ReloadDecision = 'reload' | 'blocked';

/**
 * Reload once per chunk failure: a marker in sessionStorage (this tab only,
 * and it survives the reload) records the reload, and while it is fresh a new
 * failure does not reload. Without storage (none, or one that throws: private
 * modes, disabled storage, a full quota) nothing could stop a reload loop, so
 * the answer is 'blocked' and the visitor gets the error page with its reload
 * button instead.
 */
export function decideChunkReload(storage: Pick<Storage, 'getItem' | 'setItem'> | null, now: number): ReloadDecision {
  if (!storage) return 'blocked';
  try {
    const marker = storage.getItem(RELOAD_MARKER_KEY);
    // Fresh means within 10 s either way: a marker further in the future was left
    // before the clock was set back. An unparsable one is NaN, which is never fresh.
    if (marker !== null && Math.abs(now - Number(marker)) < RELOAD_GUARD_MS) return 'blocked';
    storage.setItem(RELOAD_MARKER_KEY, String(now));
    return 'reload';
  } catch {
    return 'blocked';
  }
}
