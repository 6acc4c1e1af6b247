/**
 * How often open tabs poll builds/latest.json: the server's
 * BUILD_POLL_INTERVAL_MS setting must lie within these bounds, and a tab
 * trusts the interval the server sends only within them.
 */
export const BUILD_POLL_INTERVAL_BOUNDS_MS = { min: 1000, max: 86_400_000 } as const;

/** The server's default, and a tab's until the server has answered once. */
export const DEFAULT_BUILD_POLL_INTERVAL_MS = 60_000;

/** Tells browsers how often to poll, so a changed setting reaches open tabs at their next poll. */
export const POLL_INTERVAL_HEADER = 'X-Build-Poll-Interval-Ms';
