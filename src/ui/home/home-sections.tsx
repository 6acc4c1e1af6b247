import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { LanguageLinks } from '@/ui/language-switcher/language-links';
import styles from './home-sections.module.css';

const FEATURES = ['prerendered', 'languages', 'accessible'] as const;
const ROLLOUT_POINTS = ['zeroDowntime', 'nextClick', 'selfHealing'] as const;
const OBSERVABILITY_POINTS = ['metrics', 'logs', 'traces'] as const;

/** The sections of the home page that the menu items lead to. */
export async function HomeSections({ locale }: { locale: Locale }) {
  const t = await getTranslator(locale, 'home');
  return (
    <>
      <section id="features" className={styles.section} aria-labelledby="features-title">
        <h2 id="features-title" className={styles.title}>
          {t('features.title')}
        </h2>
        <p className={styles.intro}>{t('features.intro')}</p>
        <ul className={styles.cards}>
          {FEATURES.map((feature) => (
            <li key={feature} className={styles.card}>
              <h3 className={styles.cardTitle}>{t(`features.items.${feature}.title`)}</h3>
              <p className={styles.cardText}>{t(`features.items.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <section id="rollouts" className={styles.section} aria-labelledby="rollouts-title">
        <h2 id="rollouts-title" className={styles.title}>
          {t('rollouts.title')}
        </h2>
        <p className={styles.intro}>{t('rollouts.text')}</p>
        <ul className={styles.points}>
          {ROLLOUT_POINTS.map((point) => (
            <li key={point}>{t(`rollouts.points.${point}`)}</li>
          ))}
        </ul>
      </section>
      <section id="observability" className={styles.section} aria-labelledby="observability-title">
        <h2 id="observability-title" className={styles.title}>
          {t('observability.title')}
        </h2>
        <p className={styles.intro}>{t('observability.text')}</p>
        <ul className={styles.points}>
          {OBSERVABILITY_POINTS.map((point) => (
            <li key={point}>{t(`observability.points.${point}`)}</li>
          ))}
        </ul>
      </section>
      <section id="languages" className={styles.section} aria-labelledby="languages-title">
        <h2 id="languages-title" className={styles.title}>
          {t('languages.title')}
        </h2>
        <p className={styles.intro}>{t('languages.text')}</p>
        <LanguageLinks locale={locale} labelledBy="languages-title" />
      </section>
    </>
  );
}
