import { getTranslator } from '@/i18n/server';
import { localizedPath, type Locale } from '@/shared/locales';
import { siteConfig } from '@/shared/site-config';
import { LanguageSwitcher } from '@/ui/language-switcher/language-switcher';
import { MobileMenu } from '@/ui/mobile-menu/mobile-menu';
import { MenuList } from '@/ui/navigation/menu-list';
import { ROUTER_LINKS_AREA } from '@/ui/navigation/router-links-area';
import styles from './header.module.css';

export async function Header({ locale }: { locale: Locale }) {
  const t = await getTranslator(locale, 'header');
  const common = await getTranslator(locale, 'common');
  return (
    <header className={styles.header} {...ROUTER_LINKS_AREA}>
      <div className={styles.inner}>
        <a className={styles.brand} href={localizedPath(locale)} aria-label={common('homeLink', { name: siteConfig.name })}>
          <span className={styles.mark} aria-hidden="true" />
          {siteConfig.name}
        </a>
        <MobileMenu>
          <nav aria-label={t('navigationLabel')}>
            <MenuList locale={locale} variant="header" />
          </nav>
          <LanguageSwitcher locale={locale} />
        </MobileMenu>
      </div>
    </header>
  );
}
