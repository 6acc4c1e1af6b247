import { DEFAULT_LOCALE, LOCALES, localizedPath, type Locale } from '@/shared/locales';
import { siteConfig } from '@/shared/site-config';

function absolute(path: string): string {
  return siteConfig.url ? `${siteConfig.url}${path}` : path;
}

/**
 * The canonical link of a page and its versions in every locale, plus
 * x-default. React places these `<link>` elements in the document head.
 */
export function AlternateLinks({ locale, path }: { locale: Locale; path: string }) {
  return (
    <>
      <link rel="canonical" href={absolute(localizedPath(locale, path))} />
      {LOCALES.map((alternate) => (
        <link key={alternate} rel="alternate" hrefLang={alternate} href={absolute(localizedPath(alternate, path))} />
      ))}
      <link rel="alternate" hrefLang="x-default" href={absolute(localizedPath(DEFAULT_LOCALE, path))} />
    </>
  );
}
