import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LOADING_BAR_TIMINGS } from '@/ui/navigation-progress/loading-bar-machine';

type NavigationProgress = (typeof import('@/ui/navigation-progress/navigation-progress'))['navigationProgress'];

let progress: NavigationProgress;
const location = new URL('https://meridian.test/e2e-fixtures/crash');

/** The browser moves to `path`, as the router does before it renders the route. */
function showInBrowser(path: string) {
  location.href = new URL(path, location).href;
}

beforeEach(async () => {
  vi.useFakeTimers();
  showInBrowser('/e2e-fixtures/crash');
  vi.stubGlobal('window', { location });
  // The module holds the page's one navigation: a fresh page for each test.
  vi.resetModules();
  ({ navigationProgress: progress } = await import('@/ui/navigation-progress/navigation-progress'));
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('navigationProgress', () => {
  it("a click before the first page's render is recorded shows the bar, and the new route's render ends it", () => {
    progress.routerTransitionStarted('/');
    expect(progress.routeRendered()).toBe(false);
    vi.advanceTimersByTime(LOADING_BAR_TIMINGS.throttleMs);
    expect(progress.getSnapshot()).toMatchObject({ phase: 'progressing', visible: true });

    showInBrowser('/');
    expect(progress.routeRendered()).toBe(true);
    expect(progress.getSnapshot()).toMatchObject({ phase: 'finished', progress: 100 });
  });

  it('a move to the page already shown starts nothing, before and after its render is recorded', () => {
    progress.routerTransitionStarted('/e2e-fixtures/crash#details');
    expect(progress.getSnapshot().phase).toBe('hidden');
    progress.routeRendered();
    progress.routerTransitionStarted('/e2e-fixtures/crash');
    vi.advanceTimersByTime(LOADING_BAR_TIMINGS.throttleMs);
    expect(progress.getSnapshot().phase).toBe('hidden');
  });

  it('a navigation after the first render runs until its route renders', () => {
    progress.routeRendered();
    progress.routerTransitionStarted('/ja?tab=2');
    vi.advanceTimersByTime(LOADING_BAR_TIMINGS.throttleMs);
    expect(progress.getSnapshot()).toMatchObject({ phase: 'progressing', visible: true });
    showInBrowser('/ja?tab=2');
    expect(progress.routeRendered()).toBe(true);
    expect(progress.getSnapshot().phase).toBe('finished');
  });
});
