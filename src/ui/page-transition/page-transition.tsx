'use client';

import { useEffect, useState, type ReactNode } from 'react';
import styles from './page-transition.module.css';

/** Set once the first page has hydrated; later pages are client navigations. */
let firstPageShown = false;

/**
 * Fades a page in after a client navigation (about 100 ms). The server-rendered
 * first page is never animated, so it paints at once.
 */
export function PageTransition({ children }: { children: ReactNode }) {
  const [animate] = useState(() => firstPageShown);
  useEffect(() => {
    firstPageShown = true;
  }, []);
  return <div className={animate ? styles.enter : undefined}>{children}</div>;
}
