import { notFound } from 'next/navigation';
import { isLocale, type Locale } from '@/shared/locales';

/** The `[locale]` segment of a route, checked once: anything else is the not-found page. */
export async function routeLocale(params: Promise<{ locale: string }>): Promise<Locale> {
  const { locale } = await params;
  if (!isLocale(locale)) notFound();
  return locale;
}
