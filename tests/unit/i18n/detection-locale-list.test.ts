import { describe, expect, it, vi } from 'vitest';
import { localeFromAcceptLanguage, matchLanguageTag } from '@/i18n/detection';

// One more language in the one list, as adding a locale would do: detection must follow it.
vi.mock('@/shared/locales', async (importOriginal) => {
  const actual = await importOriginal<typeof import('@/shared/locales')>();
  return { ...actual, LOCALES: [...actual.LOCALES, 'fr'] };
});

describe('locale detection reads the locale list', () => {
  it('matches a locale added to src/shared/locales.ts, by its code and its language', () => {
    expect(matchLanguageTag('fr')).toBe('fr');
    expect(matchLanguageTag('fr-CA')).toBe('fr');
    expect(localeFromAcceptLanguage('de, fr-BE;q=0.8, en;q=0.5')).toBe('fr');
  });

  it('keeps its exclusions: Traditional Chinese still falls through', () => {
    expect(matchLanguageTag('zh-TW')).toBeUndefined();
  });
});
