import { BUILD_POLL_INTERVAL_BOUNDS_MS } from '@/shared/build-poll';

/**
 * What one poll of builds/latest.json learned. (Not the file's own shape,
 * which is `LatestBuild` in ./route-manifest: this is what the poller needs of it.)
 */
export interface PolledBuild {
  /** The build tabs belong on (during a canary release, the stable one). */
  id: string;
  /** During a canary release, the canary being judged: a tab already on it stays. */
  canary: string | null;
  /** The server's BUILD_POLL_INTERVAL_MS, when it sent a usable one. */
  pollIntervalMs: number | null;
}

/** A poll that failed: the HTTP status, or 0 when there was no usable answer at all. */
export class PollError extends Error {
  constructor(readonly status: number) {
    super(
      status === 0
        ? 'build-poller: builds/latest.json gave no usable answer (network failure, or a body without a string id)'
        : `build-poller: builds/latest.json answered ${status}`,
    );
    this.name = 'PollError';
  }
}

/** The browser, injected, so the schedule can be tested on fake timers. */
export interface PollerDeps {
  /** One poll; rejects with a PollError (anything else it rejects with counts as status 0). */
  fetchLatest(): Promise<PolledBuild>;
  isHidden(): boolean;
  /** Subscribes to the tab being hidden or shown; returns the unsubscribe. */
  onVisibilityChange(listener: () => void): () => void;
  random(): number;
  now(): number;
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

export interface PollerOptions {
  /** The build this page belongs to. */
  currentId: string;
  /** Until the server says otherwise. */
  defaultIntervalMs: number;
  firstCheckDelayMs: number;
  deps: PollerDeps;
  /** Once, when the tab's build is neither latest nor the canary; polling stops there. */
  onNewBuild(id: string): void;
  /** Once per run of consecutive failures. */
  onPollFailed(failure: { status: number }): void;
}

/** The longest wait between two polls while they fail, jitter included. */
export const MAX_BACKOFF_MS = 600_000;
/** Tabs opened together (a rollout, a newsletter) would otherwise poll together for ever. */
const JITTER = 0.1;

/** The POLL_INTERVAL_HEADER value when it is a whole number of ms within bounds, else null. */
function parseInterval(header: string | null): number | null {
  if (header === null || !/^\d+$/.test(header)) return null;
  const interval = Number(header);
  return interval >= BUILD_POLL_INTERVAL_BOUNDS_MS.min && interval <= BUILD_POLL_INTERVAL_BOUNDS_MS.max ? interval : null;
}

/** The body and interval header of a latest.json answer; throws PollError(0) when the body is not one. */
export function parseLatestBuild(body: unknown, intervalHeader: string | null): PolledBuild {
  const { id, canary } = typeof body === 'object' && body !== null ? (body as { id?: unknown; canary?: unknown }) : {};
  // An empty id would differ from every build and announce one that does not exist.
  if (typeof id !== 'string' || id === '') throw new PollError(0);
  return { id, canary: typeof canary === 'string' && canary !== '' ? canary : null, pollIntervalMs: parseInterval(intervalHeader) };
}

/**
 * Asks for the latest build now and then, and tells once when the tab's build
 * is neither the one tabs belong on nor a canary being judged: so during a
 * canary release a tab stays on the build it loaded, after a promotion or an
 * abort it moves once to the stable build. Waits are the interval ±10%, doubled per consecutive failure up to
 * ten minutes. A hidden tab sends nothing: a check that falls due waits for
 * the tab to come back.
 */
export function startBuildPoller(options: PollerOptions): { stop(): void } {
  const { deps } = options;
  let intervalMs = options.defaultIntervalMs;
  let failures = 0;
  let timer: unknown = null;
  let dueAt = 0;
  /** The timer fired while the tab was hidden: the check it owed is made on return. */
  let missedWhileHidden = false;
  let inFlight = false;
  let stopped = false;

  const jittered = (ms: number) => ms * (1 - JITTER + 2 * JITTER * deps.random());

  function schedule(waitMs: number): void {
    dueAt = deps.now() + waitMs;
    timer = deps.setTimeout(onTimer, waitMs);
  }

  function onTimer(): void {
    timer = null;
    if (deps.isHidden()) missedWhileHidden = true;
    else void check();
  }

  function onVisibilityChange(): void {
    if (inFlight || deps.isHidden()) return;
    // Browsers hold timers back in hidden tabs and asleep machines: a check whose
    // time has passed is made now, without waiting for its timer.
    if (!missedWhileHidden && deps.now() < dueAt) return;
    if (timer !== null) deps.clearTimeout(timer);
    timer = null;
    void check();
  }

  async function check(): Promise<void> {
    missedWhileHidden = false;
    inFlight = true;
    let latest: PolledBuild;
    try {
      latest = await deps.fetchLatest();
    } catch (error) {
      inFlight = false;
      if (!stopped) onFailure(error instanceof PollError ? error.status : 0);
      return;
    }
    inFlight = false;
    if (!stopped) onAnswer(latest);
  }

  function onFailure(status: number): void {
    failures += 1;
    schedule(Math.min(MAX_BACKOFF_MS, jittered(intervalMs * 2 ** failures)));
    if (failures === 1) options.onPollFailed({ status });
  }

  function onAnswer(latest: PolledBuild): void {
    failures = 0;
    intervalMs = latest.pollIntervalMs ?? intervalMs;
    if (latest.id === options.currentId || latest.canary === options.currentId) {
      schedule(jittered(intervalMs));
      return;
    }
    stop();
    options.onNewBuild(latest.id);
  }

  const unsubscribe = deps.onVisibilityChange(onVisibilityChange);

  function stop(): void {
    if (stopped) return;
    stopped = true;
    if (timer !== null) deps.clearTimeout(timer);
    timer = null;
    unsubscribe();
  }

  schedule(options.firstCheckDelayMs);
  return { stop };
}
