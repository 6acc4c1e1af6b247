import type { ReactNode } from 'react';
import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { Footer } from '@/ui/footer/footer';
import { Header } from '@/ui/header/header';
import styles from './layouts.module.css';

/** Header, main content and footer: the layout of every regular page. */
export async function DefaultLayout({ locale, children }: { locale: Locale; children: ReactNode }) {
  const t = await getTranslator(locale, 'common');
  return (
    <>
      <a className="skip-link" href="#main">
        {t('skipToContent')}
      </a>
      <Header locale={locale} />
      <main id="main" className={styles.main} tabIndex={-1}>
        {children}
      </main>
      <Footer locale={locale} />
    </>
  );
}
