'use client';

import { useCallback, useEffect, useRef, type CSSProperties } from 'react';
import { usePageSettled } from '@/shared/page-settled';
import type { Swiper } from './swiper-runtime';
import type { SwiperLabels } from './slides';
import styles from './carousel.module.css';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
/** Swiper arrives this long after the page settles, so its code never competes with the first screen's work. */
const IDLE_LOAD_DELAY_MS = 3000;

/**
 * The carousel's buttons and pagination: its only code. The slides around them are the
 * server's HTML (carousel.tsx, whose section is the controls' parent), which Swiper takes
 * over in place. Swiper's code (about
 * 30 KiB) is not part of the first load: it comes when the visitor reaches for the
 * carousel (pointer, touch, focus, these buttons), or once the page has been idle for a
 * few seconds; then the arrow keys move it too. Autoplay pauses on hover and focus and
 * stays off for visitors who prefer reduced motion.
 */
export function CarouselControls({ labels, slideCount }: { labels: SwiperLabels; slideCount: number }) {
  const controlsRef = useRef<HTMLDivElement>(null);
  const paginationRef = useRef<HTMLDivElement>(null);
  const swiperRef = useRef<Swiper | null>(null);
  const loadingRef = useRef<Promise<Swiper | null> | null>(null);

  /** Swiper, loaded and set up once; null when the carousel left the page meanwhile. */
  const ensureSwiper = useCallback((): Promise<Swiper | null> => {
    if (loadingRef.current) return loadingRef.current;
    // Read now, while the controls are on the page: React clears the refs when they leave.
    const root = controlsRef.current?.parentElement;
    const element = root?.querySelector<HTMLElement>('.swiper');
    const pagination = paginationRef.current;
    if (!root || !element || !pagination) return Promise.resolve(null);
    const loading: Promise<Swiper | null> = import('./swiper-runtime').then(async ({ createSwiper }) => {
      if (loadingRef.current !== loading) return null;
      const swiper = await createSwiper({ root, element, pagination, labels, reducedMotion: window.matchMedia(REDUCED_MOTION).matches });
      // The carousel may have left the page while Swiper was being set up (a navigation).
      if (loadingRef.current === loading) return (swiperRef.current = swiper);
      swiper.destroy(true, false);
      return null;
    });
    loadingRef.current = loading;
    return loading;
  }, [labels]);

  useEffect(() => {
    const root = controlsRef.current?.parentElement;
    if (!root) return;
    const load = () => void ensureSwiper();
    root.addEventListener('pointerenter', load);
    root.addEventListener('touchstart', load, { passive: true });
    root.addEventListener('focusin', load);
    return () => {
      root.removeEventListener('pointerenter', load);
      root.removeEventListener('touchstart', load);
      root.removeEventListener('focusin', load);
      swiperRef.current?.destroy(true, false);
      swiperRef.current = null;
      loadingRef.current = null;
    };
  }, [ensureSwiper]);

  const settled = usePageSettled(IDLE_LOAD_DELAY_MS);
  useEffect(() => {
    if (settled) void ensureSwiper();
  }, [settled, ensureSwiper]);

  return (
    <div ref={controlsRef} className={styles.controls} style={{ '--slide-count': slideCount } as CSSProperties}>
      <button
        type="button"
        className={styles.prev}
        aria-label={labels.previous}
        onClick={() => void ensureSwiper().then((swiper) => swiper?.slidePrev())}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <div ref={paginationRef} className={styles.pagination} />
      <button
        type="button"
        className={styles.next}
        aria-label={labels.next}
        onClick={() => void ensureSwiper().then((swiper) => swiper?.slideNext())}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
