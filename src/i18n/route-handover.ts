import type { RoutingDecision } from './routing';

/**
 * How the Node entry (src/server) hands the routing decision it made for a
 * request to the locale proxy inside Next, so that each request is decided
 * once: a request header that only the entry writes. The entry replaces any
 * copy a visitor sent, and marks its own with a key it installs on a global
 * before Next loads (the proxy runs in the same process). Without the entry
 * (`next dev`, Next's own server.js) no key is installed, the header is never
 * believed, and the proxy decides for itself.
 */
export const ROUTE_HANDOVER_HEADER = 'x-meridian-route';

const KEY = Symbol.for('meridian.route-handover-key');

type WithKey = typeof globalThis & { [KEY]?: string };

const KINDS = new Set<unknown>(['pass', 'redirect', 'serve']);

/** Called once by the entry, before Next loads. */
export function installRouteHandoverKey(key: string): void {
  (globalThis as WithKey)[KEY] = key;
}

/** The header's value for the decision made for `pathname` (as sent), marked with `key`. */
export function routeHandover(key: string, pathname: string, decision: RoutingDecision): string {
  return `${key} ${encodeURIComponent(pathname)} ${encodeURIComponent(JSON.stringify(decision))}`;
}

/**
 * The decision the entry handed over, when `header` carries this process's key
 * and was made for `pathname` as Next's proxy reads it; undefined otherwise (the
 * path read differently, say a dot segment Next's URL parser resolved), and the
 * proxy decides.
 */
export function handedOverDecision(header: string | null | undefined, pathname: string): RoutingDecision | undefined {
  const key = (globalThis as WithKey)[KEY];
  if (!key || !header) return undefined;
  const [offeredKey, forPath, encoded] = header.split(' ');
  if (offeredKey !== key || forPath === undefined || encoded === undefined) return undefined;
  try {
    if (decodeURIComponent(forPath) !== pathname) return undefined;
    const decision = JSON.parse(decodeURIComponent(encoded)) as RoutingDecision;
    return KINDS.has(decision?.kind) ? decision : undefined;
  } catch {
    return undefined;
  }
}
