import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { siteConfig } from '@/shared/site-config';
import { LanguageLinks } from '@/ui/language-switcher/language-links';
import { MenuList } from '@/ui/navigation/menu-list';
import { ROUTER_LINKS_AREA } from '@/ui/navigation/router-links-area';
import styles from './footer.module.css';

export async function Footer({ locale }: { locale: Locale }) {
  const t = await getTranslator(locale, 'footer');
  const year = new Date().getFullYear();
  return (
    <footer className={styles.footer} {...ROUTER_LINKS_AREA}>
      <div className={styles.inner}>
        <div className={styles.identity}>
          <p className={styles.name}>{siteConfig.name}</p>
          <p className={styles.tagline}>{t('tagline')}</p>
        </div>
        <nav aria-label={t('navigationLabel')}>
          <MenuList locale={locale} variant="footer" />
        </nav>
        <div>
          <p className={styles.heading} id="footer-languages">
            {t('languagesLabel')}
          </p>
          <LanguageLinks locale={locale} labelledBy="footer-languages" />
        </div>
      </div>
      <p className={styles.copyright}>{t('copyright', { year, name: siteConfig.name })}</p>
    </footer>
  );
}
