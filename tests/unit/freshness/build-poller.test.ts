import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MAX_BACKOFF_MS, parseLatestBuild, PollError, startBuildPoller, type LatestBuild } from '@/freshness/build-poller';

const INTERVAL = 60_000;

/** A poller on fake timers, with a scripted server and a tab that can be hidden. */
function harness(options: { random?: number; firstCheckDelayMs?: number } = {}) {
  const answers: (LatestBuild | PollError | (() => Promise<LatestBuild>))[] = [];
  const fetchTimes: number[] = [];
  const newBuilds: string[] = [];
  const failures: number[] = [];
  let hidden = false;
  let visibilityListener: (() => void) | null = null;
  const poller = startBuildPoller({
    currentId: 'a',
    defaultIntervalMs: INTERVAL,
    firstCheckDelayMs: options.firstCheckDelayMs ?? 0,
    deps: {
      fetchLatest: () => {
        fetchTimes.push(Date.now());
        const answer = answers.shift() ?? { id: 'a', pollIntervalMs: null };
        if (typeof answer === 'function') return answer();
        return answer instanceof PollError ? Promise.reject(answer) : Promise.resolve(answer);
      },
      isHidden: () => hidden,
      onVisibilityChange: (listener) => {
        visibilityListener = listener;
        return () => (visibilityListener = null);
      },
      random: () => options.random ?? 0.5,
      now: () => Date.now(),
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    onNewBuild: (id) => newBuilds.push(id),
    onPollFailed: ({ status }) => failures.push(status),
  });
  const start = Date.now();
  return {
    poller,
    answers,
    newBuilds,
    failures,
    /** Times of the polls so far, in ms since the start. */
    polls: () => fetchTimes.map((time) => time - start),
    setHidden(value: boolean) {
      hidden = value;
      visibilityListener?.();
    },
    listening: () => visibilityListener !== null,
  };
}

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('startBuildPoller: the schedule', () => {
  it('checks after the first delay, then every interval', async () => {
    const poll = harness({ firstCheckDelayMs: 1000 });
    await vi.advanceTimersByTimeAsync(999);
    expect(poll.polls()).toEqual([]);
    await vi.advanceTimersByTimeAsync(1 + 3 * INTERVAL);
    expect(poll.polls()).toEqual([1000, 1000 + INTERVAL, 1000 + 2 * INTERVAL, 1000 + 3 * INTERVAL]);
  });

  it.each([
    [0, 0.9 * INTERVAL],
    [0.999_999, 1.1 * INTERVAL],
  ])('adds at most ±10%% jitter (random %s → wait %s ms)', async (random, wait) => {
    const poll = harness({ random });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(Math.ceil(wait));
    expect(poll.polls()).toHaveLength(2);
    expect(poll.polls()[1]).toBeCloseTo(wait, -1);
  });

  it('takes the interval the server sends for the following waits', async () => {
    const poll = harness();
    poll.answers.push({ id: 'a', pollIntervalMs: 1000 });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(3000);
    expect(poll.polls()).toEqual([0, 1000, 2000, 3000]);
  });

  it('keeps polling while the build stays the same, and stops for good at a new one', async () => {
    const poll = harness();
    poll.answers.push({ id: 'a', pollIntervalMs: null }, { id: 'b', pollIntervalMs: null });
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(poll.newBuilds).toEqual(['b']);
    expect(poll.polls()).toEqual([0, INTERVAL]);
    expect(poll.listening()).toBe(false);
  });
});

describe('startBuildPoller: a hidden tab', () => {
  it('sends nothing while hidden and checks at once on return when a check is due', async () => {
    const poll = harness();
    await vi.advanceTimersByTimeAsync(0);
    poll.setHidden(true);
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(poll.polls()).toEqual([0]);
    poll.setHidden(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(poll.polls()).toEqual([0, 5 * INTERVAL]);
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(poll.polls()).toEqual([0, 5 * INTERVAL, 6 * INTERVAL]);
  });

  it('adds no check when the tab returns before one is due', async () => {
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
});

describe('startBuildPoller: failures', () => {
  it('backs off exponentially up to ten minutes', async () => {
    const poll = harness();
    poll.answers.push(...Array.from({ length: 8 }, () => new PollError(503)));
    await vi.advanceTimersByTimeAsync(40 * INTERVAL);
    const waits = poll.polls().slice(1).map((time, index) => time - (poll.polls()[index] ?? 0));
    expect(waits.slice(0, 5)).toEqual([2 * INTERVAL, 4 * INTERVAL, 8 * INTERVAL, MAX_BACKOFF_MS, MAX_BACKOFF_MS]);
  });

  it('never waits more than ten minutes, jitter included', async () => {
    const poll = harness({ random: 0.999_999 });
    poll.answers.push(...Array.from({ length: 6 }, () => new PollError(0)));
    await vi.advanceTimersByTimeAsync(60 * INTERVAL);
    const waits = poll.polls().slice(1).map((time, index) => time - (poll.polls()[index] ?? 0));
    expect(Math.max(...waits)).toBe(MAX_BACKOFF_MS);
  });

  it('reports once per run of failures, and a success starts a new run', async () => {
    const poll = harness();
    poll.answers.push(new PollError(503), new PollError(502), new PollError(0), { id: 'a', pollIntervalMs: null }, new PollError(500), new PollError(0));
    await vi.advanceTimersByTimeAsync(60 * INTERVAL);
    expect(poll.failures).toEqual([503, 500]);
  });

  it('returns to the plain interval after a success', async () => {
    const poll = harness();
    poll.answers.push(new PollError(503), { id: 'a', pollIntervalMs: null });
    await vi.advanceTimersByTimeAsync(0);
    await vi.advanceTimersByTimeAsync(2 * INTERVAL + INTERVAL);
    expect(poll.polls()).toEqual([0, 2 * INTERVAL, 3 * INTERVAL]);
  });
});

describe('startBuildPoller: stop', () => {
  it('stops timers and listeners, and a poll in flight calls nothing back', async () => {
    let answer: (value: LatestBuild) => void = () => {};
    const poll = harness();
    poll.answers.push(() => new Promise<LatestBuild>((resolve) => (answer = resolve)));
    await vi.advanceTimersByTimeAsync(0);
    poll.poller.stop();
    answer({ id: 'b', pollIntervalMs: null });
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(poll.newBuilds).toEqual([]);
    expect(poll.polls()).toEqual([0]);
    expect(poll.listening()).toBe(false);
  });
});

describe('parseLatestBuild', () => {
  it('reads the id and a usable interval', () => {
    expect(parseLatestBuild({ id: 'abc', timestamp: 1 }, '1000')).toEqual({ id: 'abc', pollIntervalMs: 1000 });
    expect(parseLatestBuild({ id: 'abc' }, null)).toEqual({ id: 'abc', pollIntervalMs: null });
  });

  it.each(['0', '-5', 'abc', '1e9', '', '999', '86400001', '1000.5'])('ignores the interval %j', (header) => {
    expect(parseLatestBuild({ id: 'abc' }, header).pollIntervalMs).toBeNull();
  });

  it.each([null, 'abc', 42, {}, { id: 7 }, { id: '' }, []])('refuses the body %j', (body) => {
    expect(() => parseLatestBuild(body, null)).toThrow(PollError);
  });
});
