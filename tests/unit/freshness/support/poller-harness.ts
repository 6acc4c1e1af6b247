import { startBuildPoller, type PolledBuild } from '@/freshness/build-poller';

export const INTERVAL = 60_000;
export const SAME: PolledBuild = { id: 'a', canary: null, pollIntervalMs: null };

type Answer = PolledBuild | Error | (() => Promise<PolledBuild>);

/**
 * A poller on fake timers, with a scripted server (answers in order, then the
 * same build or `then`), a tab that can be hidden, and a wall clock that can drift from
 * the timers the way it does in a throttled tab or after a clock change.
 */
export function harness(
  options: {
    random?: number;
    firstCheckDelayMs?: number;
    currentId?: string;
    /** Once the scripted answers run out (default SAME). */ then?: PolledBuild;
  } = {},
) {
  const answers: Answer[] = [];
  const fetchTimes: number[] = [];
  const newBuilds: string[] = [];
  const failures: number[] = [];
  let hidden = false;
  let clockOffset = 0;
  let unsubscribes = 0;
  let visibilityListener: (() => void) | null = null;
  const start = Date.now();
  const poller = startBuildPoller({
    currentId: options.currentId ?? 'a',
    defaultIntervalMs: INTERVAL,
    firstCheckDelayMs: options.firstCheckDelayMs ?? 0,
    deps: {
      fetchLatest: () => {
        fetchTimes.push(Date.now() - start);
        const answer = answers.shift() ?? options.then ?? SAME;
        if (typeof answer === 'function') return answer();
        return answer instanceof Error ? Promise.reject(answer) : Promise.resolve(answer);
      },
      isHidden: () => hidden,
      onVisibilityChange: (listener) => {
        visibilityListener = listener;
        return () => {
          unsubscribes += 1;
          visibilityListener = null;
        };
      },
      random: () => options.random ?? 0.5,
      now: () => Date.now() + clockOffset,
      setTimeout: (run, ms) => setTimeout(run, ms),
      clearTimeout: (handle) => clearTimeout(handle as ReturnType<typeof setTimeout>),
    },
    onNewBuild: (id) => newBuilds.push(id),
    onPollFailed: ({ status }) => failures.push(status),
  });
  return {
    poller,
    answers,
    newBuilds,
    failures,
    /** When each poll was sent, in ms since the start. */
    polls: () => [...fetchTimes],
    /** The time between consecutive polls. */
    waits: () => fetchTimes.slice(1).map((time, index) => time - (fetchTimes[index] ?? 0)),
    setHidden(value: boolean) {
      hidden = value;
      visibilityListener?.();
    },
    moveClock(ms: number) {
      clockOffset += ms;
    },
    listening: () => visibilityListener !== null,
    unsubscribes: () => unsubscribes,
  };
}

/** An answer that arrives when the test says so. */
export function pending() {
  let settle: { resolve(build: PolledBuild): void; reject(error: Error): void } = { resolve: () => {}, reject: () => {} };
  const answer = () => new Promise<PolledBuild>((resolve, reject) => (settle = { resolve, reject }));
  return { answer, settle: () => settle };
}
