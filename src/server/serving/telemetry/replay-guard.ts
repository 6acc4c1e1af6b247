export interface ReplayGuardOptions {
  /** Page views remembered at once, so a flood of tokens cannot grow memory without bound. */
  capacity?: number;
  now?: () => number;
}

export interface ReplayGuard {
  /**
   * Whether this is the first report of `kind` (a small integer) for page view `id`; if so,
   * it is remembered until `until` (the token's expiry, in ms), after which the token is
   * refused anyway.
   */
  firstReport(id: string, kind: number, until: number): boolean;
}

interface Seen {
  /** One bit per kind already reported. */
  kinds: number;
  until: number;
}

/**
 * Each page view counts at most one report of each kind, on this pod. The map is kept in the
 * order its entries were last extended, so the ones that expired first sit at its front and
 * dropping them is cheap; past `capacity` the oldest goes, whose token is then the closest to
 * expiring.
 */
export function createReplayGuard({ capacity = 100_000, now = Date.now }: ReplayGuardOptions = {}): ReplayGuard {
  const seen = new Map<string, Seen>();

  function dropExpired(time: number): void {
    for (const [id, entry] of seen) {
      if (entry.until >= time) return;
      seen.delete(id);
    }
  }

  return {
    firstReport(id, kind, until) {
      dropExpired(now());
      const bit = 1 << kind;
      const entry = seen.get(id);
      if (entry && (entry.kinds & bit) !== 0) return false;
      seen.delete(id);
      if (seen.size >= capacity) {
        const oldest = seen.keys().next().value;
        if (oldest !== undefined) seen.delete(oldest);
      }
      seen.set(id, { kinds: (entry?.kinds ?? 0) | bit, until: Math.max(entry?.until ?? 0, until) });
      return true;
    },
  };
}
