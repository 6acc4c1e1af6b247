import Swiper from 'swiper';
import { A11y, Autoplay, Keyboard, Pagination } from 'swiper/modules';
import type { CarouselLabels } from './slides';

export const AUTOPLAY_DELAY_MS = 6000;
const SLIDE_SPEED_MS = 500;

function visitorIsInside(root: HTMLElement): boolean {
  return root.matches(':hover') || root.contains(document.activeElement);
}

/**
 * Autoplay holds while focus is inside `root` and resumes when both focus and
 * pointer have left (Swiper's own pauseOnMouseEnter covers the pointer alone).
 * The pointer or focus may already be inside when Swiper arrives: it only
 * watches for them arriving.
 */
function holdAutoplayWhileInside(swiper: Swiper, root: HTMLElement): void {
  if (visitorIsInside(root)) swiper.autoplay?.stop();
  const hold = () => swiper.autoplay?.stop();
  const release = (event: FocusEvent | PointerEvent) => {
    if (swiper.autoplay?.running) return;
    const focusStays = event instanceof FocusEvent && root.contains(event.relatedTarget as Node | null);
    const pointerStays = event instanceof FocusEvent && root.matches(':hover');
    const focusInside = event instanceof PointerEvent && root.contains(document.activeElement);
    if (!focusStays && !pointerStays && !focusInside) swiper.autoplay?.start();
  };
  root.addEventListener('focusin', hold);
  root.addEventListener('focusout', release);
  root.addEventListener('pointerleave', release);
  swiper.on('destroy', () => {
    root.removeEventListener('focusin', hold);
    root.removeEventListener('focusout', release);
    root.removeEventListener('pointerleave', release);
  });
}

/**
 * Turns the server-rendered slides into a Swiper: loop, keyboard arrows,
 * labelled pagination, and autoplay that pauses on hover and focus inside
 * `root`, unless the visitor prefers reduced motion. Loaded on demand (see
 * carousel.tsx), with everything that only matters once Swiper runs.
 */
export function createSwiper(options: {
  root: HTMLElement;
  element: HTMLElement;
  pagination: HTMLElement;
  labels: CarouselLabels;
  reducedMotion: boolean;
}): Swiper {
  const { root, element, pagination, labels, reducedMotion } = options;
  const swiper = new Swiper(element, {
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
  if (!reducedMotion) holdAutoplayWhileInside(swiper, root);
  return swiper;
}

export type { Swiper };
