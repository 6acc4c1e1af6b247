import type { ReactNode } from 'react';
import styles from './layouts.module.css';

/** No header or footer: the layout of the error pages, which must render whatever else failed. */
export function BlankLayout({ children }: { children: ReactNode }) {
  return (
    <main id="main" className={styles.blank}>
      {children}
    </main>
  );
}
