import { routeLocale } from '@/i18n/route-locale';
import { HomeCarousel } from '@/ui/carousel/home-carousel';
import { HomeSections } from '@/ui/home/home-sections';
import { AlternateLinks } from '@/ui/seo/alternate-links';

export default async function HomePage({ params }: { params: Promise<{ locale: string }> }) {
  const locale = await routeLocale(params);
  return (
    <>
      <AlternateLinks locale={locale} path="/" />
      <HomeCarousel locale={locale} />
      <HomeSections locale={locale} />
    </>
  );
}
