import { describe, expect, it } from 'vitest';
import { createReplayGuard } from '@/server/serving/telemetry/replay-guard';

function clock() {
  let time = 1_000_000;
  return { now: () => time, advance: (ms: number) => void (time += ms) };
}

describe('createReplayGuard', () => {
  it('lets each kind through once per page view', () => {
    const guard = createReplayGuard({ now: clock().now });
    expect([guard.firstReport('a', 0, 2e6), guard.firstReport('a', 0, 2e6), guard.firstReport('a', 1, 2e6)]).toEqual([true, false, true]);
    expect(guard.firstReport('b', 0, 2e6)).toBe(true);
    expect(guard.firstReport('a', 12, 2e6)).toBe(true);
    expect(guard.firstReport('a', 12, 2e6)).toBe(false);
  });

  it('forgets a page view once its token has expired', () => {
    const time = clock();
    const guard = createReplayGuard({ now: time.now });
    guard.firstReport('a', 0, time.now() + 1000);
    time.advance(1000);
    expect(guard.firstReport('a', 0, time.now() + 1000)).toBe(false);
    time.advance(1001);
    expect(guard.firstReport('a', 0, time.now() + 1000)).toBe(true);
  });

  it('keeps a renewed page view until its latest expiry', () => {
    const time = clock();
    const guard = createReplayGuard({ now: time.now });
    guard.firstReport('a', 0, time.now() + 1000);
    guard.firstReport('a', 1, time.now() + 5000);
    time.advance(3000);
    expect(guard.firstReport('a', 0, time.now() + 1000)).toBe(false);
  });

  it('holds at most its capacity, forgetting the oldest first', () => {
    const guard = createReplayGuard({ capacity: 1000, now: clock().now });
    for (let i = 0; i < 100_000; i += 1) guard.firstReport(`flood-${i}`, 0, 2e6);
    expect(guard.firstReport('flood-99999', 0, 2e6)).toBe(false);
    expect(guard.firstReport('flood-0', 0, 2e6)).toBe(true);
  });
});
