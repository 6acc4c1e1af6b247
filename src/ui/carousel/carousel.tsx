'use client';

import { useCallback, useEffect, useRef, type CSSProperties } from 'react';
import { SiteLink } from '@/ui/navigation/site-link';
import { interpolate } from '@/i18n/client-messages';
import { useLoadEventFired } from '@/shared/load-event';
import type { Swiper } from './swiper-runtime';
import { SLIDE_IMAGE_SIZE, type CarouselLabels, type SlideContent } from './slides';
import styles from './carousel.module.css';

const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';
/** Swiper arrives this long after the page settles: well before autoplay's first turn. */
const IDLE_LOAD_DELAY_MS = 3000;

/**
 * The hero carousel. The server renders every slide in Swiper's markup with the
 * first one in view, so it reads without JavaScript and nothing moves when
 * Swiper takes over. Swiper's code (about 30 KiB) is not part of the first
 * load: it comes when the visitor reaches for the carousel (pointer, touch,
 * focus, its buttons), or once the page has been idle for a few seconds; then
 * the arrow keys move it too. Autoplay pauses on hover and focus and stays off
 * for visitors who prefer reduced motion.
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
        root: rootRef.current as HTMLElement,
        element: swiperElementRef.current as HTMLElement,
        pagination: paginationRef.current as HTMLElement,
        labels,
        reducedMotion: window.matchMedia(REDUCED_MOTION).matches,
      });
      swiperRef.current = swiper;
      return swiper;
    });
    return loadingRef.current;
  }, [labels]);

  useEffect(() => {
    const root = rootRef.current;
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

  const loaded = useLoadEventFired();
  useEffect(() => {
    if (!loaded) return;
    // Safari has no requestIdleCallback: there the timer alone decides.
    const timer = setTimeout(() => (window.requestIdleCallback ?? setTimeout)(() => void ensureSwiper()), IDLE_LOAD_DELAY_MS);
    return () => clearTimeout(timer);
  }, [loaded, ensureSwiper]);

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
              {slide.image === null ? (
                <div className={`${styles.image} ${styles.heroImage}`} role="img" aria-label={slide.imageAlt} />
              ) : (
                // eslint-disable-next-line @next/next/no-img-element -- SVG slides: Next's optimiser does not resize SVG and is off (images.unoptimized in next.config.js).
                <img
                  className={styles.image}
                  src={slide.image}
                  alt={slide.imageAlt}
                  width={SLIDE_IMAGE_SIZE.width}
                  height={SLIDE_IMAGE_SIZE.height}
                  loading="lazy"
                  fetchPriority="low"
                  decoding="async"
                />
              )}
              <div className={styles.copy}>
                <h2 className={styles.title}>{slide.title}</h2>
                <p className={styles.text}>{slide.text}</p>
                <SiteLink className={styles.cta} href={slide.href}>
                  {slide.cta}
                </SiteLink>
              </div>
            </div>
          ))}
        </div>
      </div>
      <div className={styles.controls} style={{ '--slide-count': slides.length } as CSSProperties}>
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
    </section>
  );
}
