'use client';

import { useCallback, useEffect, useRef, type CSSProperties } from 'react';
import { SiteLink } from '@/ui/navigation/site-link';
import { interpolate } from '@/i18n/client-messages';
import type { Swiper } from './swiper-runtime';
import { SLIDE_IMAGE_SIZE, type CarouselLabels, type SlideContent } from './slides';
import styles from './carousel.module.css';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
/** Swiper arrives this long after the page settles: well before autoplay's first turn. */
const IDLE_LOAD_DELAY_MS = 3000;

function visitorIsInside(root: HTMLElement | null): boolean {
  return Boolean(root && (root.matches(':hover') || root.contains(document.activeElement)));
}

/**
 * The hero carousel. The server renders every slide in Swiper's markup with the
 * first one in view, so it reads without JavaScript and nothing moves when
 * Swiper takes over. Swiper's code (about 30 KiB) is not part of the first
 * load: it comes when the visitor reaches for the carousel, or once the page
 * has been idle for a few seconds. Autoplay pauses on hover and focus and stays
 * off for visitors who prefer reduced motion.
 */
export function Carousel({ slides, labels }: { slides: SlideContent[]; labels: CarouselLabels }) {
  const rootRef = useRef<HTMLElement>(null);
  const swiperElementRef = useRef<HTMLDivElement>(null);
  const paginationRef = useRef<HTMLDivElement>(null);
  const swiperRef = useRef<Swiper | null>(null);
  const loadingRef = useRef<Promise<Swiper> | null>(null);

  const ensureSwiper = useCallback((): Promise<Swiper> => {
    loadingRef.current ??= import('./swiper-runtime').then(({ createSwiper }) => {
      const swiper = createSwiper({
        element: swiperElementRef.current as HTMLElement,
        pagination: paginationRef.current as HTMLElement,
        labels,
        reducedMotion: window.matchMedia(REDUCED_MOTION).matches,
      });
      swiperRef.current = swiper;
      // The pointer or focus may already be inside: Swiper only watches for them arriving.
      if (visitorIsInside(rootRef.current)) swiper.autoplay?.stop();
      return swiper;
    });
    return loadingRef.current;
  }, [labels]);

  useEffect(() => {
    const root = rootRef.current;
    if (!root) return;
    const load = () => void ensureSwiper();
    const hold = () => swiperRef.current?.autoplay?.stop();
    const release = (event: FocusEvent | PointerEvent) => {
      const swiper = swiperRef.current;
      if (!swiper || swiper.autoplay?.running || window.matchMedia(REDUCED_MOTION).matches) return;
      const focusStays = event instanceof FocusEvent && root.contains(event.relatedTarget as Node | null);
      const pointerStays = event instanceof FocusEvent && root.matches(':hover');
      const focusInside = event instanceof PointerEvent && root.contains(document.activeElement);
      if (!focusStays && !pointerStays && !focusInside) swiper.autoplay?.start();
    };
    const onKeyDown = (event: KeyboardEvent) => {
      if (swiperRef.current || (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight')) return;
      const box = root.getBoundingClientRect();
      if (box.bottom < 0 || box.top > window.innerHeight) return;
      void ensureSwiper().then((swiper) => (event.key === 'ArrowRight' ? swiper.slideNext() : swiper.slidePrev()));
    };
    let idleTimer: ReturnType<typeof setTimeout> | undefined;
    const scheduleIdleLoad = () => {
      idleTimer = setTimeout(() => requestIdleCallback(load), IDLE_LOAD_DELAY_MS);
    };
    if (document.readyState === 'complete') scheduleIdleLoad();
    else window.addEventListener('load', scheduleIdleLoad, { once: true });

    root.addEventListener('pointerenter', load);
    root.addEventListener('touchstart', load, { passive: true });
    root.addEventListener('focusin', load);
    root.addEventListener('focusin', hold);
    root.addEventListener('focusout', release);
    root.addEventListener('pointerleave', release);
    document.addEventListener('keydown', onKeyDown);
    return () => {
      clearTimeout(idleTimer);
      window.removeEventListener('load', scheduleIdleLoad);
      root.removeEventListener('pointerenter', load);
      root.removeEventListener('touchstart', load);
      root.removeEventListener('focusin', load);
      root.removeEventListener('focusin', hold);
      root.removeEventListener('focusout', release);
      root.removeEventListener('pointerleave', release);
      document.removeEventListener('keydown', onKeyDown);
      swiperRef.current?.destroy(true, false);
      swiperRef.current = null;
      loadingRef.current = null;
    };
  }, [ensureSwiper]);

  return (
    <section ref={rootRef} className={styles.carousel} aria-label={labels.region} aria-roledescription="carousel">
      <div ref={swiperElementRef} className={`swiper ${styles.swiper}`}>
        <div className={`swiper-wrapper ${styles.wrapper}`}>
          {slides.map((slide, index) => (
            <div
              key={slide.id}
              className={`swiper-slide ${styles.slide}`}
              role="group"
              aria-label={interpolate(labels.slide, { index: index + 1, slidesLength: slides.length })}
            >
              <div className={styles.copy}>
                <h2 className={styles.title}>{slide.title}</h2>
                <p className={styles.text}>{slide.text}</p>
                <SiteLink className={styles.cta} href={slide.href}>
                  {slide.cta}
                </SiteLink>
              </div>
              {/* eslint-disable-next-line @next/next/no-img-element -- SVG slides, the first a data: URL inside the HTML: Next's optimiser does not resize SVG and is off (images.unoptimized in next.config.js). */}
              <img
                className={styles.image}
                src={slide.image}
                alt={slide.imageAlt}
                width={SLIDE_IMAGE_SIZE.width}
                height={SLIDE_IMAGE_SIZE.height}
                loading={index === 0 ? 'eager' : 'lazy'}
                fetchPriority={index === 0 ? 'high' : 'low'}
                decoding={index === 0 ? 'sync' : 'async'}
              />
            </div>
          ))}
        </div>
      </div>
      <div className={styles.controls}>
        <button
          type="button"
          className={styles.prev}
          aria-label={labels.previous}
          onClick={() => void ensureSwiper().then((swiper) => swiper.slidePrev())}
        >
          <span aria-hidden="true">‹</span>
        </button>
        {/* Sized for its bullets before Swiper adds them, so nothing moves. */}
        <div ref={paginationRef} className={styles.pagination} style={{ '--slide-count': slides.length } as CSSProperties} />
        <button
          type="button"
          className={styles.next}
          aria-label={labels.next}
          onClick={() => void ensureSwiper().then((swiper) => swiper.slideNext())}
        >
          <span aria-hidden="true">›</span>
        </button>
      </div>
    </section>
  );
}
