import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  estimatedProgress,
  HIDDEN_STATE,
  LOADING_BAR_TIMINGS,
  LoadingBarMachine,
  type LoadingBarState,
} from '@/ui/navigation-progress/loading-bar-machine';

const { throttleMs, durationMs, hideDelayMs, resetDelayMs } = LOADING_BAR_TIMINGS;

let states: LoadingBarState[];
let machine: LoadingBarMachine;

beforeEach(() => {
  vi.useFakeTimers();
  states = [];
  machine = new LoadingBarMachine((state) => states.push(state));
});

afterEach(() => {
  vi.useRealTimers();
});

/** Starts a navigation and lets it become visible. */
function startVisible() {
  machine.start();
  vi.advanceTimersByTime(throttleMs);
  expect(machine.current).toEqual({ phase: 'progressing', progress: 0, visible: true });
}

it('uses the specified timings', () => {
  expect(LOADING_BAR_TIMINGS).toMatchObject({ throttleMs: 200, durationMs: 2000, hideDelayMs: 500, resetDelayMs: 400 });
});

it('estimates about 70 % at the duration and 84 % at twice that, never 100', () => {
  expect(estimatedProgress(0, durationMs)).toBe(0);
  expect(estimatedProgress(durationMs, durationMs)).toBeCloseTo(70.5, 0);
  expect(estimatedProgress(2 * durationMs, durationMs)).toBeCloseTo(84.4, 0);
  expect(estimatedProgress(1e9, durationMs)).toBeLessThan(100);
});

describe('LoadingBarMachine', () => {
  it('starts hidden', () => {
    expect(machine.current).toEqual(HIDDEN_STATE);
  });

  it('never shows a navigation that finishes within the throttle', () => {
    machine.start();
    expect(machine.current).toEqual({ phase: 'started', progress: 0, visible: false });
    vi.advanceTimersByTime(throttleMs - 1);
    machine.finish();
    expect(machine.current).toEqual(HIDDEN_STATE);
    vi.advanceTimersByTime(5000);
    expect(machine.current).toEqual(HIDDEN_STATE);
    expect(states.some((state) => state.visible)).toBe(false);
  });

  it('becomes visible at the throttle, not before', () => {
    machine.start();
    vi.advanceTimersByTime(throttleMs - 1);
    expect(machine.current.visible).toBe(false);
    vi.advanceTimersByTime(1);
    expect(machine.current).toEqual({ phase: 'progressing', progress: 0, visible: true });
  });

  it('progresses monotonically below 100, following estimatedProgress', () => {
    startVisible();
    let previous = 0;
    for (let elapsed = 100; elapsed <= 10 * durationMs; elapsed += 100) {
      vi.advanceTimersByTime(100);
      const { progress, phase, visible } = machine.current;
      expect(phase).toBe('progressing');
      expect(visible).toBe(true);
      expect(progress).toBeGreaterThan(previous);
      expect(progress).toBeLessThan(100);
      expect(progress).toBeCloseTo(estimatedProgress(elapsed, durationMs), 5);
      if (elapsed === durationMs) expect(progress).toBeCloseTo(70, -1);
      previous = progress;
    }
  });

  it.each([
    ['finish', 'finished'],
    ['fail', 'error'],
  ] as const)('%s: full, then fades after 500 ms, then resets after 400 ms more', (method, phase) => {
    startVisible();
    vi.advanceTimersByTime(1000);
    machine[method]();
    expect(machine.current).toEqual({ phase, progress: 100, visible: true });
    vi.advanceTimersByTime(hideDelayMs - 1);
    expect(machine.current).toEqual({ phase, progress: 100, visible: true });
    vi.advanceTimersByTime(1);
    expect(machine.current).toEqual({ phase, progress: 100, visible: false });
    vi.advanceTimersByTime(resetDelayMs - 1);
    expect(machine.current).toEqual({ phase, progress: 100, visible: false });
    vi.advanceTimersByTime(1);
    expect(machine.current).toEqual(HIDDEN_STATE);
  });

  it('stops ticking once finished', () => {
    startVisible();
    vi.advanceTimersByTime(300);
    machine.finish();
    vi.advanceTimersByTime(100);
    expect(machine.current.progress).toBe(100);
  });

  it('shows an error even when it happens within the throttle', () => {
    machine.start();
    vi.advanceTimersByTime(50);
    machine.fail();
    expect(machine.current).toEqual({ phase: 'error', progress: 100, visible: true });
    vi.advanceTimersByTime(throttleMs);
    expect(machine.current.phase).toBe('error');
    vi.advanceTimersByTime(hideDelayMs + resetDelayMs - throttleMs);
    expect(machine.current).toEqual(HIDDEN_STATE);
  });

  it('ignores finish and fail while hidden', () => {
    machine.finish();
    machine.fail();
    expect(machine.current).toEqual(HIDDEN_STATE);
    expect(states).toEqual([]);
  });

  it('ignores start while a navigation is in progress', () => {
    startVisible();
    vi.advanceTimersByTime(500);
    const before = machine.current;
    const notified = states.length;
    machine.start();
    expect(machine.current).toBe(before);
    expect(states).toHaveLength(notified);
    vi.advanceTimersByTime(100);
    expect(machine.current.progress).toBeCloseTo(estimatedProgress(600, durationMs), 5);
  });

  it('ignores a second start within the throttle (the throttle is not reset)', () => {
    machine.start();
    vi.advanceTimersByTime(150);
    machine.start();
    vi.advanceTimersByTime(throttleMs - 150);
    expect(machine.current.phase).toBe('progressing');
  });

  it.each(['finish', 'fail'] as const)('restarts cleanly during the fade after %s', (method) => {
    startVisible();
    machine[method]();
    vi.advanceTimersByTime(hideDelayMs - 100);
    machine.start();
    expect(machine.current).toEqual({ phase: 'started', progress: 0, visible: false });
    vi.advanceTimersByTime(throttleMs);
    expect(machine.current).toEqual({ phase: 'progressing', progress: 0, visible: true });
    // The old hide and reset timers must not fire into the new navigation.
    vi.advanceTimersByTime(hideDelayMs + resetDelayMs);
    expect(machine.current.phase).toBe('progressing');
    expect(machine.current.visible).toBe(true);
  });

  it('restarts cleanly after the bar faded but before it reset', () => {
    startVisible();
    machine.finish();
    vi.advanceTimersByTime(hideDelayMs + 100);
    machine.start();
    // The old reset would have fired 300 ms from now; the new bar is visible after 200 ms.
    vi.advanceTimersByTime(resetDelayMs);
    expect(machine.current).toEqual({
      phase: 'progressing',
      progress: estimatedProgress(resetDelayMs - throttleMs, durationMs),
      visible: true,
    });
  });

  it('tells the listener every state in order', () => {
    machine.start();
    vi.advanceTimersByTime(throttleMs + 200);
    machine.finish();
    vi.advanceTimersByTime(hideDelayMs + resetDelayMs);
    expect(states.map(({ phase, visible }) => `${phase}:${visible}`)).toEqual([
      'started:false',
      'progressing:true',
      'progressing:true',
      'progressing:true',
      'finished:true',
      'finished:false',
      'hidden:false',
    ]);
    expect(states.map((state) => state.progress)).toEqual([
      0,
      0,
      estimatedProgress(100, durationMs),
      estimatedProgress(200, durationMs),
      100,
      100,
      0,
    ]);
    expect(states.at(-1)).toEqual(machine.current);
  });
});
