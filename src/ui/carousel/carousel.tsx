import { ROUTER_LINKS_AREA } from '@/ui/navigation/router-links-area';
import { CarouselControls } from './carousel-controls';
import { SLIDE_IMAGE_SIZE, type CarouselLabels, type SlideContent } from './slides';
import styles from './carousel.module.css';

/**
 * The hero carousel. The server renders every slide in Swiper's markup with the first
 * one in view, so it reads without JavaScript and nothing moves when Swiper takes over;
 * the slides have no code of their own, only the controls do (CarouselControls).
 */
export function Carousel({ slides, labels }: { slides: SlideContent[]; labels: CarouselLabels }) {
  const { region, ...controlLabels } = labels;
  return (
    <section className={styles.carousel} aria-label={region} aria-roledescription="carousel" {...ROUTER_LINKS_AREA}>
      <div className={`swiper ${styles.swiper}`}>
        <div className={`swiper-wrapper ${styles.wrapper}`}>
          {slides.map((slide) => (
            <div key={slide.id} className={`swiper-slide ${styles.slide}`} role="group" aria-label={slide.label}>
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
                />
              )}
              <div className={styles.copy}>
                <h2>{slide.title}</h2>
                <p>{slide.text}</p>
                <a href={slide.href}>{slide.cta}</a>
              </div>
            </div>
          ))}
        </div>
      </div>
      <CarouselControls labels={controlLabels} slideCount={slides.length} />
    </section>
  );
}
