import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { LanguageLinks } from '@/ui/language-switcher/language-links';
import styles from './home-sections.module.css';

const FEATURES = ['prerendered', 'languages', 'accessible'] as const;
const ROLLOUT_POINTS = ['zeroDowntime', 'nextClick', 'selfHealing'] as const;
const OBSERVABILITY_POINTS = ['metrics', 'logs', 'traces'] as const;

/** A titled section with an introduction and a list of short points. */
function PointsSection({ id, title, text, children }: { id: string; title: string; text: string; children: string[] }) {
  return (
    <section id={id} className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`} className={styles.title}>
        {title}
      </h2>
      <p className={styles.intro}>{text}</p>
      <ul className={styles.points}>
        {children.map((point) => (
          <li key={point}>{point}</li>
        ))}
      </ul>
    </section>
  );
}

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
      <PointsSection id="rollouts" title={t('rollouts.title')} text={t('rollouts.text')}>
        {ROLLOUT_POINTS.map((point) => t(`rollouts.points.${point}`))}
      </PointsSection>
      <PointsSection id="observability" title={t('observability.title')} text={t('observability.text')}>
        {OBSERVABILITY_POINTS.map((point) => t(`observability.points.${point}`))}
      </PointsSection>
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
