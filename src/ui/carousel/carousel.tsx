'use client';

import { useEffect, useRef, type CSSProperties } from 'react';
import Link from 'next/link';
import { Swiper, SwiperSlide } from 'swiper/react';
import type { Swiper as SwiperInstance } from 'swiper/types';
import { A11y, Autoplay, Keyboard, Navigation, Pagination } from 'swiper/modules';
import 'swiper/css';
import { SLIDE_IMAGE_SIZE, type CarouselLabels, type SlideContent } from './slides';
import styles from './carousel.module.css';

const AUTOPLAY_DELAY_MS = 6000;
const REDUCED_MOTION = '(prefers-reduced-motion: reduce)';

/**
 * The hero carousel. The server renders every slide in Swiper's markup with the
 * first one in view, so it reads without JavaScript and does not move when
 * Swiper takes over. Autoplay pauses on hover and focus, and stays off for
 * visitors who prefer reduced motion.
 */
export function Carousel({ slides, labels }: { slides: SlideContent[]; labels: CarouselLabels }) {
  const swiperRef = useRef<SwiperInstance | null>(null);
  const rootRef = useRef<HTMLElement>(null);

  useEffect(() => {
    const media = window.matchMedia(REDUCED_MOTION);
    const root = rootRef.current;
    const applyMotionPreference = () => {
      const swiper = swiperRef.current;
      if (!swiper || swiper.destroyed) return;
      swiper.params.speed = media.matches ? 0 : 500;
      if (media.matches) swiper.autoplay.stop();
      else if (!root?.contains(document.activeElement)) swiper.autoplay.start();
    };
    const pause = () => swiperRef.current?.autoplay.pause();
    const resume = (event: FocusEvent) => {
      if (root?.contains(event.relatedTarget as Node | null) || media.matches) return;
      swiperRef.current?.autoplay.resume();
    };
    applyMotionPreference();
    media.addEventListener('change', applyMotionPreference);
    root?.addEventListener('focusin', pause);
    root?.addEventListener('focusout', resume);
    return () => {
      media.removeEventListener('change', applyMotionPreference);
      root?.removeEventListener('focusin', pause);
      root?.removeEventListener('focusout', resume);
    };
  }, []);

  return (
    <section ref={rootRef} className={styles.carousel} aria-label={labels.region} aria-roledescription="carousel">
      <Swiper
        modules={[A11y, Autoplay, Keyboard, Navigation, Pagination]}
        loop
        speed={500}
        autoplay={{ delay: AUTOPLAY_DELAY_MS, pauseOnMouseEnter: true, disableOnInteraction: false }}
        keyboard={{ enabled: true, onlyInViewport: true }}
        navigation={{ prevEl: `.${styles.prev}`, nextEl: `.${styles.next}` }}
        pagination={{ el: `.${styles.pagination}`, clickable: true }}
        a11y={{
          prevSlideMessage: labels.previous,
          nextSlideMessage: labels.next,
          paginationBulletMessage: labels.goTo,
          slideLabelMessage: labels.slide,
          containerMessage: null,
          containerRoleDescriptionMessage: null,
          itemRoleDescriptionMessage: null,
        }}
        onSwiper={(swiper) => {
          swiperRef.current = swiper;
        }}
        className={styles.swiper}
      >
        {slides.map((slide, index) => (
          <SwiperSlide key={slide.id} className={styles.slide}>
            <div className={styles.copy}>
              <h2 className={styles.title}>{slide.title}</h2>
              <p className={styles.text}>{slide.text}</p>
              <Link className={styles.cta} href={slide.href}>
                {slide.cta}
              </Link>
            </div>
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
          </SwiperSlide>
        ))}
      </Swiper>
      <div className={styles.controls}>
        <button type="button" className={styles.prev} aria-label={labels.previous}>
          <span aria-hidden="true">‹</span>
        </button>
        {/* Sized for its bullets before Swiper adds them, so nothing moves. */}
        <div className={styles.pagination} style={{ '--slide-count': slides.length } as CSSProperties} />
        <button type="button" className={styles.next} aria-label={labels.next}>
          <span aria-hidden="true">›</span>
        </button>
      </div>
    </section>
  );
}
