/** The home page's carousel slides, in order; their words live in locales/<locale>/carousel.json. */
export const SLIDES = [
  { id: 'speed', image: '/images/slide-speed.svg', target: 'features' },
  { id: 'rollouts', image: '/images/slide-rollouts.svg', target: 'rollouts' },
  { id: 'observability', image: '/images/slide-observability.svg', target: 'observability' },
] as const;

/** Every slide image has these intrinsic dimensions, so its box is reserved before it loads. */
export const SLIDE_IMAGE_SIZE = { width: 1200, height: 600 } as const;

export interface SlideContent {
  id: string;
  /** The slide's group label: its place among the others ("Slide 1 of 3"). */
  label: string;
  title: string;
  text: string;
  cta: string;
  href: string;
  /** The image's URL; null for the first slide's, which the stylesheet draws (`.heroImage`). */
  image: string | null;
  imageAlt: string;
}

/** What Swiper and the controls say: the carousel's labels but its region's name, which the server's HTML carries. */
export type SwiperLabels = Omit<CarouselLabels, 'region'>;

export interface CarouselLabels {
  region: string;
  previous: string;
  next: string;
  /** Contains Swiper's `{{index}}` placeholder. */
  goTo: string;
}
