import { describe, expect, it } from 'vitest';
import { createRateLimiter } from '@/server/serving/telemetry/rate-limit';

function clock(start = 1_000_000) {
  let time = start;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

const takeMany = (limiter: { take(address: string): boolean }, address: string, times: number) =>
  Array.from({ length: times }, () => limiter.take(address));

describe('createRateLimiter', () => {
  it('allows the limit in a window, then refuses', () => {
    const limiter = createRateLimiter({ limit: 3, windowMs: 60_000, now: clock().now });
    expect(takeMany(limiter, 'a', 5)).toEqual([true, true, true, false, false]);
  });

  it('counts each address on its own', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, now: clock().now });
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('a')).toBe(false);
    expect(limiter.take('b')).toBe(true);
  });

  it('starts a new window once the current one is over', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 2, windowMs: 60_000, now: time.now });
    expect(takeMany(limiter, 'a', 3)).toEqual([true, true, false]);
    time.advance(59_999);
    expect(limiter.take('a')).toBe(false);
    time.advance(1);
    expect(takeMany(limiter, 'a', 3)).toEqual([true, true, false]);
  });

  it('is a fixed window: it starts at the first request, not the last', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, now: time.now });
    expect(limiter.take('a')).toBe(true);
    time.advance(600);
    expect(limiter.take('a')).toBe(false);
    time.advance(400);
    expect(limiter.take('a')).toBe(true);
  });

  it('counts refused calls too: hammering does not get through sooner', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 2, windowMs: 1000, now: time.now });
    for (let i = 0; i < 10; i += 1) {
      limiter.take('a');
      time.advance(50);
    }
    expect(limiter.take('a')).toBe(false);
  });

  it('evicts the oldest address when full', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxAddresses: 2, now: clock().now });
    expect(takeMany(limiter, 'a', 2)).toEqual([true, false]);
    expect(limiter.take('b')).toBe(true);
    expect(limiter.take('c')).toBe(true);
    // 'a' was forgotten to make room for 'c', so it starts again; that evicts 'b'.
    expect(limiter.take('a')).toBe(true);
    expect(limiter.take('c')).toBe(false);
    expect(limiter.take('b')).toBe(true);
  });

  it('drops expired windows before evicting live ones', () => {
    const time = clock();
    const limiter = createRateLimiter({ limit: 1, windowMs: 1000, maxAddresses: 2, now: time.now });
    limiter.take('old');
    time.advance(1000);
    expect(limiter.take('b')).toBe(true);
    expect(limiter.take('c')).toBe(true);
    // Had 'b' been evicted instead of the expired 'old', it would be allowed again.
    expect(limiter.take('b')).toBe(false);
    expect(limiter.take('c')).toBe(false);
  });

  it('keeps limiting the addresses it tracks while random ones flood it', () => {
    const limiter = createRateLimiter({ limit: 1, windowMs: 60_000, maxAddresses: 1000, now: clock().now });
    for (let i = 0; i < 100_000; i += 1) limiter.take(`random-${i}`);
    // Only the last thousand are tracked; the earliest were evicted and start over.
    expect(limiter.take('random-99999')).toBe(false);
    expect(limiter.take('random-0')).toBe(true);
  });
});
