export interface RateLimiterOptions {
  /** Requests allowed per address in one window. */
  limit: number;
  windowMs: number;
  /** Addresses tracked at once, so a flood of random addresses can't grow memory without bound. */
  maxAddresses?: number;
  now?: () => number;
}

export interface RateLimiter {
  /** Counts one request from `address`; false once it is over the limit in the current window. */
  take(address: string): boolean;
}

interface Window {
  startedAt: number;
  count: number;
}

/**
 * A fixed-window limiter per client address. The map is kept in the order the
 * windows started (a new window re-inserts its address), so expired windows and
 * the oldest ones are always at its front: dropping them is cheap.
 */
export function createRateLimiter({ limit, windowMs, maxAddresses = 10_000, now = Date.now }: RateLimiterOptions): RateLimiter {
  const windows = new Map<string, Window>();

  function dropExpired(time: number): void {
    for (const [address, window] of windows) {
      if (time - window.startedAt < windowMs) return;
      windows.delete(address);
    }
  }

  return {
    take(address) {
      const time = now();
      dropExpired(time);
      let window = windows.get(address);
      if (!window) {
        if (windows.size >= maxAddresses) {
          const oldest = windows.keys().next().value;
          if (oldest !== undefined) windows.delete(oldest);
        }
        window = { startedAt: time, count: 0 };
        windows.set(address, window);
      }
      window.count += 1;
      return window.count <= limit;
    },
  };
}
