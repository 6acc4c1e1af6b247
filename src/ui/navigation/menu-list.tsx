import { SiteLink } from './site-link';
import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { MENU_ITEMS, menuItemHref } from './menu-items';
import styles from './menu-list.module.css';

/** The menu items as links; the header and the footer each lay them out their way. */
export async function MenuList({ locale, variant }: { locale: Locale; variant: 'header' | 'footer' }) {
  const t = await getTranslator(locale, 'navigation');
  return (
    <ul className={styles[variant]}>
      {MENU_ITEMS.map((item) => (
        <li key={item.id}>
          <SiteLink className={styles.link} href={menuItemHref(locale, item.section)}>
            {t(item.id)}
          </SiteLink>
        </li>
      ))}
    </ul>
  );
}
