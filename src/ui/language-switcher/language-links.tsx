'use client';

import { usePathname } from 'next/navigation';
import { LOCALES, NATIVE_NAMES, localizedPath, pathWithinLocale, type Locale } from '@/shared/locales';
import { useLocaleSwitch } from './use-locale-switch';
import styles from './language-links.module.css';

/** The languages as a plain list of links: the footer's second way to switch. */
export function LanguageLinks({ locale, labelledBy }: { locale: Locale; labelledBy: string }) {
  const pathname = usePathname();
  const switchLocale = useLocaleSwitch();
  const path = pathWithinLocale(pathname);
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
            onClick={(event) => switchLocale(event, option)}
          >
            {NATIVE_NAMES[option]}
          </a>
        </li>
      ))}
    </ul>
  );
}
