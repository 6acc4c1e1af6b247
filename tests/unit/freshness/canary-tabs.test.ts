import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { parseLatestBuild, type PolledBuild } from '@/freshness/build-poller';
import { harness, INTERVAL } from './support/poller-harness';

/** What builds/latest.json says of a release: the stable build, and the canary while one is judged. */
const release = (stable: string, canary: string | null = null): PolledBuild => ({ id: stable, canary, pollIntervalMs: null });

beforeEach(() => {
  vi.useFakeTimers({ now: 1_000_000 });
});

afterEach(() => {
  vi.useRealTimers();
});

describe('tabs during a canary release (A stable, B the canary)', () => {
  it('leaves a tab of the stable build where it is while the canary is judged', async () => {
    const tab = harness({ currentId: 'A', then: release('A', 'B') });
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(tab.newBuilds).toEqual([]);
    expect(tab.polls()).toHaveLength(11);
  });

  it('leaves a tab of the canary on the canary, whichever build answered its polls', async () => {
    const tab = harness({ currentId: 'B', then: release('A', 'B') });
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(tab.newBuilds).toEqual([]);
  });

  it('moves every tab of the old build to the canary once it is promoted, and only once', async () => {
    const tab = harness({ currentId: 'A', then: release('B') });
    tab.answers.push(release('A', 'B'), release('A', 'B'));
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(tab.newBuilds).toEqual(['B']);
    expect(tab.polls()).toEqual([0, INTERVAL, 2 * INTERVAL]);
  });

  it('leaves a tab of the canary where it is once it is promoted', async () => {
    const tab = harness({ currentId: 'B', then: release('B') });
    tab.answers.push(release('A', 'B'));
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(tab.newBuilds).toEqual([]);
  });

  it('moves a tab of an aborted canary back to the stable build once', async () => {
    const tab = harness({ currentId: 'B', then: release('A') });
    tab.answers.push(release('A', 'B'));
    await vi.advanceTimersByTimeAsync(10 * INTERVAL);
    expect(tab.newBuilds).toEqual(['A']);
    expect(tab.polls()).toEqual([0, INTERVAL]);
  });

  it('leaves a tab of the stable build where it is after an abort', async () => {
    const tab = harness({ currentId: 'A', then: release('A') });
    tab.answers.push(release('A', 'B'));
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(tab.newBuilds).toEqual([]);
  });

  it('moves a tab of a canary replaced by another one to the stable build, not into the new canary', async () => {
    const tab = harness({ currentId: 'B', then: release('A', 'C') });
    tab.answers.push(release('A', 'B'));
    await vi.advanceTimersByTimeAsync(5 * INTERVAL);
    expect(tab.newBuilds).toEqual(['A']);
  });

  it('moves a tab of a build older than both to the stable build', async () => {
    const tab = harness({ currentId: 'Z', then: release('A', 'B') });
    await vi.advanceTimersByTimeAsync(INTERVAL);
    expect(tab.newBuilds).toEqual(['A']);
  });
});

describe('parseLatestBuild: the canary', () => {
  it('reads the canary a release answer names', () => {
    expect(parseLatestBuild({ id: 'A', timestamp: 1, canary: 'B' }, null)).toEqual({ id: 'A', canary: 'B', pollIntervalMs: null });
  });

  it.each([undefined, null, '', 7, { id: 'B' }, ['B']])('reads no canary from %j', (canary) => {
    expect(parseLatestBuild({ id: 'A', canary }, null).canary).toBeNull();
  });
});
