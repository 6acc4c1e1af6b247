import type { Locale } from '@/shared/locales';
import { HomeCarousel } from '@/ui/carousel/home-carousel';
import { HomeSections } from '@/ui/home/home-sections';
import { AlternateLinks } from '@/ui/seo/alternate-links';

export default async function HomePage({ params }: { params: Promise<{ locale: string }> }) {
  const locale = (await params).locale as Locale;
  return (
    <>
      <AlternateLinks locale={locale} path="/" />
      <HomeCarousel locale={locale} />
      <HomeSections locale={locale} />
    </>
  );
}
