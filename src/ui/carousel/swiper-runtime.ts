import Swiper from 'swiper';
import { A11y, Keyboard, Pagination } from 'swiper/modules';
import type { SwiperLabels } from './slides';

export const AUTOPLAY_DELAY_MS = 6000;
const SLIDE_SPEED_MS = 500;

/** Lets the browser run what waits (a tap, a frame) before the next step. */
const nextTask = () => new Promise((resolve) => setTimeout(resolve, 0));

function visitorIsInside(root: HTMLElement): boolean {
  return root.matches(':hover') || root.contains(document.activeElement);
}

/**
 * Turns to the next slide every `delayMs`, counted afresh after each change of slide, and
 * holds while the pointer or focus is inside `root`, resuming once both have left. Not
 * Swiper's own autoplay: its requestAnimationFrame loop, counting down the time left for an
 * event this carousel does not use, has the page render a frame at every refresh of the
 * display for as long as it plays, which on a slow phone keeps the main thread busy.
 */
function autoplay(swiper: Swiper, root: HTMLElement, delayMs: number): void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const hold = () => clearTimeout(timer);
  const schedule = () => {
    hold();
    if (!visitorIsInside(root)) timer = setTimeout(() => swiper.slideNext(), delayMs);
  };
  const release = (event: FocusEvent | PointerEvent) => {
    const focusStays = event instanceof FocusEvent && root.contains(event.relatedTarget as Node | null);
    const pointerStays = event instanceof FocusEvent && root.matches(':hover');
    const focusInside = event instanceof PointerEvent && root.contains(document.activeElement);
    if (!focusStays && !pointerStays && !focusInside) schedule();
  };
  swiper.on('slideChangeTransitionEnd', schedule);
  root.addEventListener('pointerenter', hold);
  root.addEventListener('focusin', hold);
  root.addEventListener('focusout', release);
  root.addEventListener('pointerleave', release);
  swiper.on('destroy', () => {
    hold();
    root.removeEventListener('pointerenter', hold);
    root.removeEventListener('focusin', hold);
    root.removeEventListener('focusout', release);
    root.removeEventListener('pointerleave', release);
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
      slideLabelMessage: labels.slide,
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
