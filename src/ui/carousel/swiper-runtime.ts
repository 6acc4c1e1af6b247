import Swiper from 'swiper';
import { A11y, Keyboard, Pagination } from 'swiper/modules';
import type { SwiperLabels } from './slides';

export const AUTOPLAY_DELAY_MS = 6000;
const SLIDE_SPEED_MS = 500;

/** Lets the browser run what waits (a tap, a frame) before the next step. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

/**
 * Turns to the next slide every `delayMs`, counted afresh after each change of slide, and
 * holds while a mouse pointer or the focus is inside `root`, or the page is hidden, resuming
 * once all have gone. A touch is no hover: a tap neither holds it nor leaves a hover behind.
 * Not Swiper's own autoplay: its requestAnimationFrame loop, counting down the time left for
 * an event this carousel does not use, has the page render a frame at every refresh of the
 * display for as long as it plays, which on a slow phone keeps the main thread busy.
 */
function autoplay(swiper: Swiper, root: HTMLElement, delayMs: number): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  // Swiper is often loaded by the mouse entering: it is inside already.
  let mouseInside = window.matchMedia('(hover: hover)').matches && root.matches(':hover');
  const hold = () => clearTimeout(timer);
  const schedule = () => {
    hold();
    if (!mouseInside && !root.contains(document.activeElement) && !document.hidden) timer = setTimeout(() => swiper.slideNext(), delayMs);
  };
  const pointer = (event: PointerEvent) => {
    if (event.pointerType !== 'mouse') return;
    mouseInside = event.type === 'pointerenter';
    schedule();
  };
  swiper.on('slideChangeTransitionEnd', schedule);
  root.addEventListener('pointerenter', pointer);
  root.addEventListener('pointerleave', pointer);
  root.addEventListener('focusin', hold);
  root.addEventListener('focusout', schedule);
  document.addEventListener('visibilitychange', schedule);
  swiper.on('destroy', () => {
    hold();
    root.removeEventListener('pointerenter', pointer);
    root.removeEventListener('pointerleave', pointer);
    root.removeEventListener('focusin', hold);
    root.removeEventListener('focusout', schedule);
    document.removeEventListener('visibilitychange', schedule);
  });
  schedule();
}

/**
 * Turns the server-rendered slides into a Swiper: loop, keyboard arrows, labelled
 * pagination, and autoplay that pauses on hover and focus inside `root`, unless the
 * visitor prefers reduced motion. Loaded on demand (see carousel-controls.tsx), with
 * everything that only matters once Swiper runs. Its code, its setting up and its first
 * layout of the slides each run in a task of their own, short enough not to hold up a tap.
 */
export async function createSwiper(options: {
  root: HTMLElement;
  element: HTMLElement;
  pagination: HTMLElement;
  labels: SwiperLabels;
  reducedMotion: boolean;
}): Promise<Swiper> {
  const { root, element, pagination, labels, reducedMotion } = options;
  await nextTask();
  const swiper = new Swiper(element, {
    init: false,
    modules: [A11y, Keyboard, Pagination],
    loop: true,
    speed: reducedMotion ? 0 : SLIDE_SPEED_MS,
    keyboard: { enabled: true, onlyInViewport: true },
    pagination: { el: pagination, clickable: true },
    a11y: {
      prevSlideMessage: labels.previous,
      nextSlideMessage: labels.next,
      paginationBulletMessage: labels.goTo,
      // The server labels each slide ("Slide 1 of 3"), in the page's language, and Swiper's loop keeps them.
      slideLabelMessage: '',
      containerMessage: null,
      containerRoleDescriptionMessage: null,
      itemRoleDescriptionMessage: null,
    },
  });
  await nextTask();
  swiper.init();
  if (!reducedMotion) autoplay(swiper, root, AUTOPLAY_DELAY_MS);
  return swiper;
}

export type { Swiper };
