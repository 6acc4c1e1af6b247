import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_BACKOFF_MS, parseLatestBuild, PollError } from '@/freshness/build-poller';
import { harness, INTERVAL, pending, SAME } from './support/poller-harness';

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('startBuildPoller: the schedule', () => {
  it('checks first after firstCheckDelayMs, then every interval', async () => {
    const poll = harness({ firstCheckDelayMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(poll.polls()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 3 * INTERVAL);
    expect(poll.polls()).toEqual([1000, 1000 + INTERVAL, 1000 + 2 * INTERVAL, 1000 + 3 * INTERVAL]);
  });

  it.each([
    [0, 0.9 * INTERVAL],
    [0.999, 1.0998 * INTERVAL],
  ])('adds ±10%% jitter to each wait (random() = %s → %s ms)', async (random, wait) => {
    const poll = harness({ random });
    await vi.advanceTimersByTimeAsync(Math.floor(wait) - 1);
    expect(poll.polls()).toEqual([0]);
    await vi.advanceTimersByTimeAsync(2);
    expect(poll.waits()).toHaveLength(1);
    expect(Math.abs((poll.waits()[0] ?? 0) - wait)).toBeLessThanOrEqual(1);
  });

  it('takes the interval the server sends for the following waits, and keeps it when an answer sends none', async () => {
    const poll = harness();
    poll.answers.push({ id: 'a', canary: null, pollIntervalMs: 1000 }, SAME, SAME);
    await vi.advanceTimersByTimeAsync(3000);
    expect(poll.polls()).toEqual([0, 1000, 2000, 3000]);
  });

  it('keeps polling while the build stays the same', async () => {
    const poll = harness();
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    expect(poll.polls()).toEqual([0, INTERVAL, 2 * INTERVAL, 3 * INTERVAL]);
    expect(poll.newBuilds).toEqual([]);
  });

  it('tells of a new build once, and stops polling for good', async () => {
    const poll = harness();
    poll.answers.push(SAME, { id: 'b', canary: null, pollIntervalMs: null }, { id: 'c', canary: null, pollIntervalMs: null });
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    poll.setHidden(true);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(poll.newBuilds).toEqual(['b']);
    expect(poll.polls()).toEqual([0, INTERVAL]);
    expect(poll.listening()).toBe(false);
  });
});

describe('startBuildPoller: a hidden tab', () => {
  it('sends nothing while hidden, and checks at once on return when a check fell due', async () => {
    const poll = harness();
    await vi.advanceTimersByTimeAsync(0);
    poll.setHidden(true);
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(poll.polls()).toEqual([0]);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.polls()).toEqual([0, 5 * INTERVAL]);
    poll.setHidden(true);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(poll.polls()).toEqual([0, 5 * INTERVAL, 6 * INTERVAL]);
  });

  it('adds no check when the tab returns before one is due: the timer carries on', async () => {
    const poll = harness();
    await vi.advanceTimersByTimeAsync(0);
    poll.setHidden(true);
    await vi.advanceTimersByTimeAsync(INTERVAL / 2);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(INTERVAL / 2 - 1);
    expect(poll.polls()).toEqual([0]);
    await vi.advanceTimersByTimeAsync(1);
    expect(poll.polls()).toEqual([0, INTERVAL]);
  });

  it('checks at once on return when the check is due but the browser held its timer back', async () => {
    const poll = harness();
    await vi.advanceTimersByTimeAsync(0);
    poll.setHidden(true);
    poll.moveClock(INTERVAL);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.polls()).toEqual([0, 0]);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(poll.polls()).toEqual([0, 0, INTERVAL]);
  });

  it('makes the check it missed even when the clock was turned back meanwhile', async () => {
    const poll = harness();
    await vi.advanceTimersByTimeAsync(0);
    poll.setHidden(true);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    poll.moveClock(-2 * INTERVAL);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.polls()).toEqual([0, INTERVAL]);
  });

  it('checks on return after a failed poll too', async () => {
    const poll = harness();
    poll.answers.push(new PollError(503));
    await vi.advanceTimersByTimeAsync(0);
    poll.setHidden(true);
    await vi.advanceTimersByTimeAsync(3 * INTERVAL);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.polls()).toEqual([0, 3 * INTERVAL]);
  });

  it('starts no second poll when the tab returns while one is under way', async () => {
    const slow = pending();
    const poll = harness();
    poll.answers.push(slow.answer);
    await vi.advanceTimersByTimeAsync(0);
    poll.setHidden(true);
    poll.setHidden(false);
    slow.settle().resolve(SAME);
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.polls()).toEqual([0]);
  });
});

describe('startBuildPoller: failures', () => {
  it('doubles the wait per consecutive failure, up to ten minutes', async () => {
    const poll = harness();
    poll.answers.push(...Array.from({ length: 6 }, () => new PollError(503)));
    await vi.advanceTimersByTimeAsync(40 * INTERVAL);
    expect(poll.waits().slice(0, 5)).toEqual([2 * INTERVAL, 4 * INTERVAL, 8 * INTERVAL, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
  });

  it('jitters the backoff as it does the interval', async () => {
    const poll = harness({ random: 0 });
    poll.answers.push(new PollError(503));
    await vi.advanceTimersByTimeAsync(2 * INTERVAL);
    expect(poll.waits()).toEqual([0.9 * 2 * INTERVAL]);
  });

  it('never waits more than ten minutes, jitter included', async () => {
    const poll = harness({ random: 0.999 });
    poll.answers.push(...Array.from({ length: 6 }, () => new PollError(0)));
    await vi.advanceTimersByTimeAsync(60 * INTERVAL);
    expect(poll.waits().slice(3, 5)).toEqual([MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
  });

  it('returns to the plain interval after a success', async () => {
    const poll = harness();
    poll.answers.push(new PollError(503), SAME, new PollError(503));
    await vi.advanceTimersByTimeAsync(2 * INTERVAL + INTERVAL + 2 * INTERVAL);
    expect(poll.waits()).toEqual([2 * INTERVAL, INTERVAL, 2 * INTERVAL]);
  });

  it('reports once per run of failures, and a success starts a new run', async () => {
    const poll = harness();
    poll.answers.push(new PollError(503), new PollError(502), new PollError(0), SAME, new PollError(500), new PollError(0));
    await vi.advanceTimersByTimeAsync(60 * INTERVAL);
    expect(poll.answers).toEqual([]);
    expect(poll.failures).toEqual([503, 500]);
  });

  it('reports status 0 for a failure that is not a PollError', async () => {
    const poll = harness();
    poll.answers.push(new TypeError('Failed to fetch'));
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.failures).toEqual([0]);
  });
});

describe('startBuildPoller: stop', () => {
  it('cancels the waiting timer and the visibility listener', async () => {
    const poll = harness({ firstCheckDelayMs: 1000 });
    poll.poller.stop();
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(poll.polls()).toEqual([]);
    expect(poll.listening()).toBe(false);
  });

  it.each([
    [
      'a new build',
      (settle: ReturnType<ReturnType<typeof pending>['settle']>) => settle.resolve({ id: 'b', canary: null, pollIntervalMs: null }),
    ],
    ['a failure', (settle: ReturnType<ReturnType<typeof pending>['settle']>) => settle.reject(new PollError(503))],
  ])('calls nothing back when a poll in flight answers %s after stop()', async (_, answer) => {
    const slow = pending();
    const poll = harness();
    poll.answers.push(slow.answer);
    await vi.advanceTimersByTimeAsync(0);
    poll.poller.stop();
    answer(slow.settle());
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(poll.newBuilds).toEqual([]);
    expect(poll.failures).toEqual([]);
    expect(poll.polls()).toEqual([0]);
  });

  it('does nothing more when called after the poller stopped itself', async () => {
    const poll = harness();
    poll.answers.push({ id: 'b', canary: null, pollIntervalMs: null });
    await vi.advanceTimersByTimeAsync(0);
    poll.poller.stop();
    expect(poll.unsubscribes()).toBe(1);
  });
});

describe('parseLatestBuild', () => {
  it('reads the id, and the interval when there is a usable one', () => {
    expect(parseLatestBuild({ id: 'abc', timestamp: 1 }, '5000')).toEqual({ id: 'abc', canary: null, pollIntervalMs: 5000 });
    expect(parseLatestBuild({ id: 'abc', timestamp: 1 }, null)).toEqual({ id: 'abc', canary: null, pollIntervalMs: null });
  });

  it.each(['1000', '86400000'])('accepts the interval bound %j', (header) => {
    expect(parseLatestBuild({ id: 'abc' }, header).pollIntervalMs).toBe(Number(header));
  });

  it.each(['0', '-5', 'abc', '1e9', '', '999', '86400001', '1000.5', '0x3e8', '99999999999999999999'])(
    'ignores the interval %j',
    (header) => {
      expect(parseLatestBuild({ id: 'abc' }, header).pollIntervalMs).toBeNull();
    },
  );

  it.each([null, 'abc', 42, {}, { id: 7 }, { id: '' }, []])('refuses the body %j with PollError(0)', (body) => {
    expect(() => parseLatestBuild(body, null)).toThrow(expect.objectContaining({ name: 'PollError', status: 0 }));
  });
});
