/** What one poll of builds/latest.json learned. */
export interface LatestBuild {
  id: string;
  /** The server's BUILD_POLL_INTERVAL_MS, when it sent a usable one. */
  pollIntervalMs: number | null;
}

/** A poll that failed: the HTTP status, or 0 when there was no usable answer at all. */
export class PollError extends Error {
  constructor(readonly status: number) {
    super(status === 0 ? 'no usable answer from builds/latest.json' : `builds/latest.json answered ${status}`);
    this.name = 'PollError';
  }
}

export interface PollerDeps {
  /** One poll; rejects with a PollError. */
  fetchLatest(): Promise<LatestBuild>;
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
  /** Once, when a different build answers; polling stops there. */
  onNewBuild(id: string): void;
  /** Once per run of consecutive failures. */
  onPollFailed(failure: { status: number }): void;
}

export const MAX_BACKOFF_MS = 600_000;
const MIN_INTERVAL_MS = 1000;
const MAX_INTERVAL_MS = 86_400_000;
const JITTER = 0.1;

/** The body and interval header of a latest.json answer; throws PollError(0) when the body is not one. */
export function parseLatestBuild(body: unknown, intervalHeader: string | null): LatestBuild {
  const id = typeof body === 'object' && body !== null ? (body as { id?: unknown }).id : undefined;
  if (typeof id !== 'string' || id === '') throw new PollError(0);
  const interval = intervalHeader !== null && /^\d+$/.test(intervalHeader.trim()) ? Number(intervalHeader) : NaN;
  const usable = Number.isSafeInteger(interval) && interval >= MIN_INTERVAL_MS && interval <= MAX_INTERVAL_MS;
  return { id, pollIntervalMs: usable ? interval : null };
}

/**
 * Asks for the latest build now and then, and tells once when another build
 * is out. Waits are the interval ±10% (so tabs opened together do not poll
 * together), doubled per consecutive failure up to ten minutes. A hidden tab
 * sends nothing: a check that falls due waits for the tab to come back.
 */
export function startBuildPoller(options: PollerOptions): { stop(): void } {
  const { deps } = options;
  let intervalMs = options.defaultIntervalMs;
  let failures = 0;
  let dueAt = deps.now() + options.firstCheckDelayMs;
  let timer: unknown = null;
  let stopped = false;
  let inFlight = false;

  const jittered = (ms: number) => ms * (1 - JITTER + 2 * JITTER * deps.random());

  function schedule(waitMs: number): void {
    dueAt = deps.now() + waitMs;
    timer = deps.setTimeout(onDue, waitMs);
  }

  function onDue(): void {
    timer = null;
    if (!stopped && !deps.isHidden()) void check();
  }

  async function check(): Promise<void> {
    let latest: LatestBuild;
    inFlight = true;
    try {
      latest = await deps.fetchLatest();
    } catch (error) {
      inFlight = false;
      if (stopped) return;
      if (failures === 0) options.onPollFailed({ status: error instanceof PollError ? error.status : 0 });
      failures += 1;
      schedule(Math.min(MAX_BACKOFF_MS, jittered(intervalMs * 2 ** failures)));
      return;
    }
    inFlight = false;
    if (stopped) return;
    failures = 0;
    if (latest.pollIntervalMs !== null) intervalMs = latest.pollIntervalMs;
    if (latest.id !== options.currentId) {
      stop();
      options.onNewBuild(latest.id);
      return;
    }
    schedule(jittered(intervalMs));
  }

  const unsubscribe = deps.onVisibilityChange(() => {
    // The timer fired while hidden and sent nothing: the check it owed is made now.
    if (!stopped && !inFlight && !deps.isHidden() && timer === null && deps.now() >= dueAt) void check();
  });

  function stop(): void {
    stopped = true;
    if (timer !== null) deps.clearTimeout(timer);
    timer = null;
    unsubscribe();
  }

  timer = deps.setTimeout(onDue, options.firstCheckDelayMs);
  return { stop };
}
