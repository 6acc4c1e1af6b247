'use client';

import { useCallback, useEffect, useRef, type CSSProperties } from 'react';
import { usePageSettled } from '@/shared/load-event';
import type { Swiper } from './swiper-runtime';
import type { SwiperLabels } from './slides';
import styles from './carousel.module.css';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
/** Swiper arrives this long after the page settles: well before autoplay's first turn. */
const IDLE_LOAD_DELAY_MS = 3000;

/**
 * The carousel's buttons and pagination: its only code. The slides around them are the
 * server's HTML (carousel.tsx), which Swiper takes over in place. Swiper's code (about
 * 30 KiB) is not part of the first load: it comes when the visitor reaches for the
 * carousel (pointer, touch, focus, these buttons), or once the page has been idle for a
 * few seconds; then the arrow keys move it too. Autoplay pauses on hover and focus and
 * stays off for visitors who prefer reduced motion.
 */
export function CarouselControls({ labels, slideCount }: { labels: SwiperLabels; slideCount: number }) {
  const controlsRef = useRef<HTMLDivElement>(null);
  const paginationRef = useRef<HTMLDivElement>(null);
  const swiperRef = useRef<Swiper | null>(null);
  const loadingRef = useRef<Promise<Swiper> | null>(null);

  const ensureSwiper = useCallback((): Promise<Swiper> => {
    if (loadingRef.current) return loadingRef.current;
    const loading = import('./swiper-runtime').then(async ({ createSwiper }) => {
      const root = controlsRef.current?.closest('section') as HTMLElement;
      const swiper = await createSwiper({
        root,
        element: root.querySelector('.swiper') as HTMLElement,
        pagination: paginationRef.current as HTMLElement,
        labels,
        reducedMotion: window.matchMedia(REDUCED_MOTION).matches,
      });
      // The carousel may have left the page while Swiper was being set up (a navigation).
      if (loadingRef.current === loading) swiperRef.current = swiper;
      else swiper.destroy(true, false);
      return swiper;
    });
    loadingRef.current = loading;
    return loading;
  }, [labels]);

  useEffect(() => {
    const root = controlsRef.current?.closest('section');
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
        onClick={() => void ensureSwiper().then((swiper) => swiper.slidePrev())}
      >
        <span aria-hidden="true">‹</span>
      </button>
      <div ref={paginationRef} className={styles.pagination} />
      <button
        type="button"
        className={styles.next}
        aria-label={labels.next}
        onClick={() => void ensureSwiper().then((swiper) => swiper.slideNext())}
      >
        <span aria-hidden="true">›</span>
      </button>
    </div>
  );
}
