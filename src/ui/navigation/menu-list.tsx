import { cache } from 'react';
import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { MENU_ITEMS, menuItemHref } from './menu-items';
import styles from './menu-list.module.css';

/**
 * The items, made once per render and locale: the header and the footer list the very
 * same elements, which the page data then carries once and refers to the second time.
 */
const menuItems = cache(async (locale: Locale) => {
  const t = await getTranslator(locale, 'navigation');
  return MENU_ITEMS.map((item) => (
    <li key={item.id}>
      <a className={styles.link} href={menuItemHref(locale, item.section)}>
        {t(item.id)}
      </a>
    </li>
  ));
});

/** The menu items as links; the header and the footer each lay them out their way. */
export async function MenuList({ locale, variant }: { locale: Locale; variant: 'header' | 'footer' }) {
  return <ul className={styles[variant]}>{await menuItems(locale)}</ul>;
}
