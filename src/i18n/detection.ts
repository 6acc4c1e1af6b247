import { DEFAULT_LOCALE, isLocale, LOCALES, type Locale } from '@/shared/locales';

/** Longer headers are garbage or an attack; a real browser sends a few dozen bytes. */
const MAX_HEADER_LENGTH = 1024;
const MAX_ENTRIES = 32;
const LANGUAGE_TAG = /^(?:\*|[a-z]{1,8}(?:-[a-z0-9]{1,8})*)$/i;
const QUALITY = /^q=(0(?:\.\d{0,3})?|1(?:\.0{0,3})?)$/i;
/**
 * Tags of a locale's language that it must not answer: Traditional Chinese
 * readers are better served by their next preference than by Simplified.
 */
const EXCLUDED_TAGS: Partial<Record<Locale, RegExp>> = { 'zh-CN': /^zh-(?:hant|tw|hk|mo)(?:-|$)/ };

export type DetectionSource = 'cookie' | 'accept-language' | 'fallback';

export interface Detection {
  locale: Locale;
  source: DetectionSource;
}

/**
 * Language tags of an Accept-Language header, best first. Malformed entries
 * (bad tag, `q=abc`) are skipped; the header is cut before parsing so its
 * size bounds the work.
 */
export function parseAcceptLanguage(header: string | null | undefined): string[] {
  if (!header) return [];
  const entries = header.slice(0, MAX_HEADER_LENGTH).split(',').slice(0, MAX_ENTRIES);
  const ranked: { tag: string; quality: number; position: number }[] = [];
  entries.forEach((entry, position) => {
    const [rawTag = '', ...params] = entry.split(';').map((part) => part.trim());
    if (!LANGUAGE_TAG.test(rawTag)) return;
    let quality = 1;
    for (const param of params) {
      const match = QUALITY.exec(param);
      if (!match) return;
      quality = Number(match[1]);
    }
    if (quality > 0) ranked.push({ tag: rawTag.toLowerCase(), quality, position });
  });
  ranked.sort((a, b) => b.quality - a.quality || a.position - b.position);
  return ranked.map((entry) => entry.tag);
}

const primaryLanguageOf = (tag: string) => tag.toLowerCase().split('-')[0];

/**
 * The supported locale a language tag asks for: the first of LOCALES in the
 * tag's language (`ja-JP` → ja, `zh-Hans` → zh-CN) whose excluded tags it is
 * not among (`zh-TW` → none).
 */
export function matchLanguageTag(tag: string): Locale | undefined {
  const lower = tag.toLowerCase();
  const primary = primaryLanguageOf(lower);
  return LOCALES.find((locale) => primaryLanguageOf(locale) === primary && !EXCLUDED_TAGS[locale]?.test(lower));
}

/** The first supported locale in an Accept-Language header. */
export function localeFromAcceptLanguage(header: string | null | undefined): Locale | undefined {
  for (const tag of parseAcceptLanguage(header)) {
    const locale = matchLanguageTag(tag);
    if (locale) return locale;
  }
  return undefined;
}

/**
 * The language of the root path: the cookie if it holds a supported locale
 * exactly, then Accept-Language, then English. Anything else in the cookie is
 * ignored, never trusted.
 */
export function detectRootLocale(input: { cookie: string | undefined; acceptLanguage: string | null | undefined }): Detection {
  if (isLocale(input.cookie)) return { locale: input.cookie, source: 'cookie' };
  const fromHeader = localeFromAcceptLanguage(input.acceptLanguage);
  if (fromHeader) return { locale: fromHeader, source: 'accept-language' };
  return { locale: DEFAULT_LOCALE, source: 'fallback' };
}
