'use client';

import { useSyncExternalStore } from 'react';
import { useClientT } from '@/i18n/client-messages';
import { navigationProgress } from './navigation-progress';
import styles from './loading-overlay.module.css';

/**
 * Covers the page while a navigation or a language switch takes longer than the
 * loading bar's throttle; never on first load, since it starts hidden.
 */
export function LoadingOverlay() {
  const t = useClientT('loading');
  const state = useSyncExternalStore(navigationProgress.subscribe, navigationProgress.getSnapshot, navigationProgress.getServerSnapshot);
  const visible = state.phase === 'progressing';
  return (
    <div className={styles.overlay} data-visible={visible} data-testid="loading-overlay" aria-hidden={!visible}>
      <div className={styles.spinner} />
      <p className={styles.label} role="status">
        {visible ? t('overlay') : ''}
      </p>
    </div>
  );
}
