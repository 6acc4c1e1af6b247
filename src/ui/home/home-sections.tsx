import { getTranslator } from '@/i18n/server';
import type { Locale } from '@/shared/locales';
import { LanguageLinks } from '@/ui/language-switcher/language-links';
import { ROUTER_LINKS_AREA } from '@/ui/navigation/router-links-area';
import styles from './home-sections.module.css';

const FEATURES = ['prerendered', 'languages', 'accessible'] as const;
const ROLLOUT_POINTS = ['zeroDowntime', 'nextClick', 'selfHealing'] as const;
const OBSERVABILITY_POINTS = ['metrics', 'logs', 'traces'] as const;

/** A titled section with an introduction and a list of short points, keyed by their ids (not their words, which the page data would carry twice). */
function PointsSection({ id, title, text, points }: { id: string; title: string; text: string; points: [key: string, text: string][] }) {
  return (
    <section id={id} className={styles.section} aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>{title}</h2>
      <p>{text}</p>
      <ul className={styles.points}>
        {points.map(([key, point]) => (
          <li key={key}>{point}</li>
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
        <h2 id="features-title">{t('features.title')}</h2>
        <p>{t('features.intro')}</p>
        <ul className={styles.cards}>
          {FEATURES.map((feature) => (
            <li key={feature} className={styles.card}>
              <h3>{t(`features.items.${feature}.title`)}</h3>
              <p>{t(`features.items.${feature}.text`)}</p>
            </li>
          ))}
        </ul>
      </section>
      <PointsSection
        id="rollouts"
        title={t('rollouts.title')}
        text={t('rollouts.text')}
        points={ROLLOUT_POINTS.map((point) => [point, t(`rollouts.points.${point}`)])}
      />
      <PointsSection
        id="observability"
        title={t('observability.title')}
        text={t('observability.text')}
        points={OBSERVABILITY_POINTS.map((point) => [point, t(`observability.points.${point}`)])}
      />
      <section id="languages" className={styles.section} aria-labelledby="languages-title" {...ROUTER_LINKS_AREA}>
        <h2 id="languages-title">{t('languages.title')}</h2>
        <p>{t('languages.text')}</p>
        <LanguageLinks locale={locale} labelledBy="languages-title" />
      </section>
    </>
  );
}
