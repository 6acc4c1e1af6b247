'use client';

import { useSyncExternalStore } from 'react';
import { navigationProgress } from './navigation-progress';
import styles from './loading-bar.module.css';

/** The thin bar above the page during client navigations. */
export function LoadingBar() {
  const state = useSyncExternalStore(navigationProgress.subscribe, navigationProgress.getSnapshot, navigationProgress.getServerSnapshot);
  return (
    <div
      className={styles.bar}
      data-testid="loading-bar"
      data-phase={state.phase}
      data-visible={state.visible}
      style={{ transform: `scaleX(${state.progress / 100})` }}
      aria-hidden="true"
    />
  );
}
