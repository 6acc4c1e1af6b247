/** The loading bar's timings, from the original site's specification. */
export const LOADING_BAR_TIMINGS = {
  /** A navigation shorter than this never shows the bar. */
  throttleMs: 200,
  /** The time over which the bar eases toward its end. */
  durationMs: 2000,
  /** How long a finished bar stays full before it fades. */
  hideDelayMs: 500,
  /** How long after hiding the bar returns to zero. */
  resetDelayMs: 400,
  /** How often a progressing bar moves. */
  tickMs: 100,
} as const;

export type LoadingBarPhase = 'hidden' | 'started' | 'progressing' | 'finished' | 'error';

export interface LoadingBarState {
  readonly phase: LoadingBarPhase;
  /** 0 to 100. */
  readonly progress: number;
  readonly visible: boolean;
}

export const HIDDEN_STATE: LoadingBarState = Object.freeze({ phase: 'hidden', progress: 0, visible: false });

/** Eases toward 100 without reaching it: about 70 at `durationMs`, 84 at twice that. */
export function estimatedProgress(elapsedMs: number, durationMs: number): number {
  return (200 / Math.PI) * Math.atan((2 * elapsedMs) / durationMs);
}

type Timer = ReturnType<typeof setTimeout>;

/**
 * start → (after the throttle) progressing → finished or error → hidden.
 * A navigation that ends within the throttle never becomes visible.
 */
export class LoadingBarMachine {
  private state: LoadingBarState = HIDDEN_STATE;
  private timers: Timer[] = [];
  private ticker: ReturnType<typeof setInterval> | undefined;
  private startedAt = 0;

  constructor(private readonly onChange: (state: LoadingBarState) => void = () => {}) {}

  get current(): LoadingBarState {
    return this.state;
  }

  start(): void {
    if (this.state.phase === 'started' || this.state.phase === 'progressing') return;
    this.clearTimers();
    this.set({ phase: 'started', progress: 0, visible: false });
    this.later(LOADING_BAR_TIMINGS.throttleMs, () => this.beginProgress());
  }

  finish(): void {
    this.end('finished');
  }

  fail(): void {
    this.end('error');
  }

  private beginProgress(): void {
    this.startedAt = Date.now();
    this.set({ phase: 'progressing', progress: 0, visible: true });
    this.ticker = setInterval(() => {
      const progress = estimatedProgress(Date.now() - this.startedAt, LOADING_BAR_TIMINGS.durationMs);
      this.set({ ...this.state, progress });
    }, LOADING_BAR_TIMINGS.tickMs);
  }

  private end(phase: 'finished' | 'error'): void {
    if (this.state.phase === 'hidden') return;
    if (this.state.phase === 'started' && phase === 'finished') {
      this.clearTimers();
      this.set(HIDDEN_STATE);
      return;
    }
    this.clearTimers();
    this.set({ phase, progress: 100, visible: true });
    this.later(LOADING_BAR_TIMINGS.hideDelayMs, () => {
      this.set({ ...this.state, visible: false });
      this.later(LOADING_BAR_TIMINGS.resetDelayMs, () => this.set(HIDDEN_STATE));
    });
  }

  private later(delayMs: number, run: () => void): void {
    this.timers.push(setTimeout(run, delayMs));
  }

  private clearTimers(): void {
    this.timers.forEach(clearTimeout);
    this.timers = [];
    if (this.ticker !== undefined) clearInterval(this.ticker);
    this.ticker = undefined;
  }

  private set(next: LoadingBarState): void {
    this.state = next;
    this.onChange(next);
  }
}
