import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { menuItemHref } from '@/ui/navigation/menu-items';
import { Carousel } from './carousel';
import { SLIDES, type CarouselLabels, type SlideContent } from './slides';

/** The carousel with its slides and labels in the page's locale. */
export async function HomeCarousel({ locale }: { locale: Locale }) {
  const t = await getTranslator(locale, 'carousel');
  const slides: SlideContent[] = SLIDES.map((slide, index) => ({
    id: slide.id,
    label: t('slideLabel', { index: index + 1, total: SLIDES.length }),
    title: t(`slides.${slide.id}.title`),
    text: t(`slides.${slide.id}.text`),
    cta: t(`slides.${slide.id}.cta`),
    href: menuItemHref(locale, slide.target),
    // The first image, the page's largest paint, comes with the stylesheet; the others load lazily.
    image: index === 0 ? null : slide.image,
    imageAlt: t(`slides.${slide.id}.imageAlt`),
  }));
  const labels: CarouselLabels = {
    region: t('label'),
    previous: t('previous'),
    next: t('next'),
    goTo: t('goTo', { index: '{{index}}' }),
  };
  return <Carousel slides={slides} labels={labels} />;
}
