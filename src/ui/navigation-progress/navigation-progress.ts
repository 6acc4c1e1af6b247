import { HIDDEN_STATE, LoadingBarMachine, type LoadingBarState } from '@/ui/loading-bar/loading-bar-machine';

const listeners = new Set<() => void>();
const machine = new LoadingBarMachine(() => listeners.forEach((listener) => listener()));

/** The one navigation in progress, shared by the loading bar and the overlay. */
export const navigationProgress = {
  start: () => machine.start(),
  finish: () => machine.finish(),
  fail: () => machine.fail(),
  subscribe(listener: () => void): () => void {
    listeners.add(listener);
    return () => listeners.delete(listener);
  },
  getSnapshot: (): LoadingBarState => machine.current,
  getServerSnapshot: (): LoadingBarState => HIDDEN_STATE,
};
