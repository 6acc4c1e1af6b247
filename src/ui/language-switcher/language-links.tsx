import { cache } from 'react';
import { LOCALES, NATIVE_NAMES, localizedPath, type Locale } from '@/shared/locales';
import styles from './language-links.module.css';

/**
 * The items, made once per render and locale: the footer and the home page's
 * languages section list the very same elements, which the page data then carries once
 * and refers to the second time.
 */
const languageItems = cache((locale: Locale) =>
  LOCALES.map((option) => (
    <li key={option}>
      <a
        className={styles.link}
        href={localizedPath(option, '/')}
        hrefLang={option}
        lang={option}
        aria-current={option === locale ? 'true' : undefined}
      >
        {NATIVE_NAMES[option]}
      </a>
    </li>
  )),
);

/**
 * The languages as a plain list of links to each locale's home page (the layout that
 * renders the footer does not know the page): the footer's second way to switch, with no
 * code of its own. Inside an area RouterLinks follows, a click on one switches as the
 * switcher does, once the page has hydrated: the same page, query and hash in that
 * language, the choice remembered.
 */
export function LanguageLinks({ locale, labelledBy }: { locale: Locale; labelledBy: string }) {
  return (
    <ul className={styles.list} aria-labelledby={labelledBy}>
      {languageItems(locale)}
    </ul>
  );
}
