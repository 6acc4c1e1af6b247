/** The interface languages, declared once; everything else derives from this list. */
export const LOCALES = ['en', 'zh-CN', 'ja'] as const;

export type Locale = (typeof LOCALES)[number];

export const DEFAULT_LOCALE: Locale = 'en';

/** Each language named in itself, as a visitor looks for it in the switcher. */
export const NATIVE_NAMES: Readonly<Record<Locale, string>> = {
  en: 'English',
  'zh-CN': '简体中文',
  ja: '日本語',
};

export function isLocale(value: unknown): value is Locale {
  return typeof value === 'string' && (LOCALES as readonly string[]).includes(value);
}

/** Case-insensitive lookup: `zh-cn` → `zh-CN`; anything else → undefined. */
export function canonicalLocale(value: string): Locale | undefined {
  const lower = value.toLowerCase();
  return LOCALES.find((locale) => locale.toLowerCase() === lower);
}

/** The public path of `path` in `locale`: English has no prefix, the others carry their code. */
export function localizedPath(locale: Locale, path = '/'): string {
  const normalized = path.startsWith('/') ? path : `/${path}`;
  if (locale === DEFAULT_LOCALE) return normalized;
  return normalized === '/' ? `/${locale}` : `/${locale}${normalized}`;
}

/**
 * The path inside its locale of a pathname, public (`/ja/x`, `/x`) or internal
 * (`/en/x`, as the router may report a rewritten English page).
 */
export function pathWithinLocale(pathname: string): string {
  const match = /^\/([^/]+)(\/.*)?$/.exec(pathname);
  const first = match?.[1];
  if (first && isLocale(first)) return match?.[2] ?? '/';
  return pathname || '/';
}

/** The locale a public pathname is in: its prefix, or English when it has none. */
export function localeOfPath(pathname: string): Locale {
  const first = /^\/([^/]+)/.exec(pathname)?.[1];
  return first && isLocale(first) ? first : DEFAULT_LOCALE;
}
