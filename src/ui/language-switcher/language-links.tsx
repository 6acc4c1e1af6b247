import { LOCALES, NATIVE_NAMES, localizedPath, type Locale } from '@/shared/locales';
import { LOCALE_LINK_ATTRIBUTE } from '@/ui/navigation/site-link';
import styles from './language-links.module.css';

/**
 * The languages as a plain list of links to each locale's `path`: the footer's second
 * way to switch, with no code of its own. Once the page has hydrated, RouterLinks
 * follows a click on one as the switcher does: the same page, query and hash in that
 * language, the choice remembered.
 */
export function LanguageLinks({ locale, labelledBy, path = '/' }: { locale: Locale; labelledBy: string; path?: string }) {
  return (
    <ul className={styles.list} aria-labelledby={labelledBy}>
      {LOCALES.map((option) => (
        <li key={option}>
          <a
            className={styles.link}
            href={localizedPath(option, path)}
            hrefLang={option}
            lang={option}
            aria-current={option === locale ? 'true' : undefined}
            {...{ [LOCALE_LINK_ATTRIBUTE]: option }}
          >
            {NATIVE_NAMES[option]}
          </a>
        </li>
      ))}
    </ul>
  );
}
