import Swiper from 'swiper';
import { A11y, Autoplay, Keyboard, Pagination } from 'swiper/modules';
import type { CarouselLabels } from './slides';

export const AUTOPLAY_DELAY_MS = 6000;
const SLIDE_SPEED_MS = 500;

/**
 * Turns the server-rendered slides into a Swiper: loop, keyboard arrows,
 * labelled pagination, and autoplay that pauses on hover, unless the visitor
 * prefers reduced motion. Loaded on demand (see carousel.tsx).
 */
export function createSwiper(options: {
  element: HTMLElement;
  pagination: HTMLElement;
  labels: CarouselLabels;
  reducedMotion: boolean;
}): Swiper {
  const { element, pagination, labels, reducedMotion } = options;
  return new Swiper(element, {
    modules: [A11y, Autoplay, Keyboard, Pagination],
    loop: true,
    speed: reducedMotion ? 0 : SLIDE_SPEED_MS,
    autoplay: reducedMotion ? false : { delay: AUTOPLAY_DELAY_MS, pauseOnMouseEnter: true, disableOnInteraction: false },
    keyboard: { enabled: true, onlyInViewport: true },
    pagination: { el: pagination, clickable: true },
    a11y: {
      prevSlideMessage: labels.previous,
      nextSlideMessage: labels.next,
      paginationBulletMessage: labels.goTo,
      slideLabelMessage: labels.slide,
      containerMessage: null,
      containerRoleDescriptionMessage: null,
      itemRoleDescriptionMessage: null,
    },
  });
}

export type { Swiper };
