import { describe, expect, it } from 'vitest';
import { detectRootLocale, localeFromAcceptLanguage, matchLanguageTag, parseAcceptLanguage } from '@/i18n/detection';

describe('parseAcceptLanguage', () => {
  it('orders tags by q-value, best first', () => {
    expect(parseAcceptLanguage('en;q=0.5, ja;q=0.9')).toEqual(['ja', 'en']);
    expect(parseAcceptLanguage('fr;q=0.1, de, en;q=0.7')).toEqual(['de', 'en', 'fr']);
  });

  it('keeps header order between equal q-values', () => {
    expect(parseAcceptLanguage('ja, en, zh')).toEqual(['ja', 'en', 'zh']);
    expect(parseAcceptLanguage('en;q=0.8, ja;q=0.8, zh;q=0.8')).toEqual(['en', 'ja', 'zh']);
    expect(parseAcceptLanguage('en;q=1, ja')).toEqual(['en', 'ja']);
  });

  it('lower-cases tags and accepts an upper-case Q', () => {
    expect(parseAcceptLanguage('JA-jp, EN;Q=0.5')).toEqual(['ja-jp', 'en']);
  });

  it('trims whitespace around entries and parameters', () => {
    expect(parseAcceptLanguage('  ja ;  q=0.8 ,\ten ; q=0.9  ')).toEqual(['en', 'ja']);
  });

  it('excludes q=0', () => {
    expect(parseAcceptLanguage('ja;q=0, en')).toEqual(['en']);
    expect(parseAcceptLanguage('ja;q=0.000')).toEqual([]);
  });

  it.each(['q=abc', 'q=1.5', 'q=2', 'q=-1', 'q=0.1234', 'x=1', 'q='])('skips an entry with %s', (param) => {
    expect(parseAcceptLanguage(`ja;${param}, en;q=0.2`)).toEqual(['en']);
  });

  it('skips malformed tags', () => {
    expect(parseAcceptLanguage('ja_JP, <script>, en-abcdefghi, , zh')).toEqual(['zh']);
  });

  it('keeps * as a tag (it matches no locale)', () => {
    expect(parseAcceptLanguage('*;q=0.5, ja')).toEqual(['ja', '*']);
  });

  it.each([[''], [null], [undefined]])('returns no tags for %j', (header) => {
    expect(parseAcceptLanguage(header)).toEqual([]);
  });

  it('only looks at the first 32 entries', () => {
    const filler = 'xx;q=0.1,'.repeat(31);
    expect(parseAcceptLanguage(`${filler}ja`)).toContain('ja');
    expect(parseAcceptLanguage(`${filler}xx,ja`)).not.toContain('ja');
    expect(parseAcceptLanguage('xx;q=0.1,'.repeat(1000))).toHaveLength(32);
  });

  it('only looks at the first 1024 characters', () => {
    // The padding is one malformed entry (a subtag is at most 8 letters), so it is skipped.
    expect(parseAcceptLanguage(`${'a'.repeat(1020)},ja`)).toEqual(['ja']); // 1023 characters
    expect(parseAcceptLanguage(`${'a'.repeat(1022)},ja`)).toEqual(['j']); // cut at 1024: ",j"
  });
});

describe('matchLanguageTag', () => {
  it.each([
    ['en', 'en'],
    ['en-GB', 'en'],
    ['EN-us', 'en'],
    ['ja', 'ja'],
    ['ja-JP', 'ja'],
    ['zh', 'zh-CN'],
    ['zh-Hans', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['zh-cn', 'zh-CN'],
    ['zh-SG', 'zh-CN'],
    ['zh-Hans-CN', 'zh-CN'],
  ])('%s → %s', (tag, locale) => {
    expect(matchLanguageTag(tag)).toBe(locale);
  });

  it.each(['zh-TW', 'zh-Hant', 'zh-HK', 'zh-MO', 'zh-Hant-TW', 'ZH-hant', 'fr', 'de-DE', '*', '', 'eng', 'jav'])(
    '%j → no locale',
    (tag) => {
      expect(matchLanguageTag(tag)).toBeUndefined();
    },
  );
});

describe('localeFromAcceptLanguage', () => {
  it.each([
    ['en;q=0.5, ja;q=0.9', 'ja'],
    ['ja-JP,ja;q=0.9,en;q=0.8', 'ja'],
    ['zh-Hans', 'zh-CN'],
    ['zh-SG, en', 'zh-CN'],
    ['zh-TW, ja;q=0.5', 'ja'],
    ['zh-Hant, zh-HK;q=0.9, en;q=0.1', 'en'],
    ['fr-FR, en-GB;q=0.3', 'en'],
    ['*, ja;q=0.2', 'ja'],
    ['ja;q=0, en', 'en'],
    ['ja;q=abc, zh;q=0.1', 'zh-CN'],
    ['JA', 'ja'],
  ])('%j → %s', (header, locale) => {
    expect(localeFromAcceptLanguage(header)).toBe(locale);
  });

  it.each([[''], [null], [undefined], ['*'], ['zh-TW, zh-HK'], ['fr, de'], ['ja;q=1.5']])('%j → no locale', (header) => {
    expect(localeFromAcceptLanguage(header)).toBeUndefined();
  });

  it('finds nothing in 20 KB of garbage', () => {
    const garbage = Array.from({ length: 20 * 1024 }, (_, i) => String.fromCharCode(33 + ((i * 7919) % 90))).join('');
    expect(garbage).toHaveLength(20 * 1024);
    expect(localeFromAcceptLanguage(garbage)).toBeUndefined();
    expect(localeFromAcceptLanguage(`${garbage},ja`)).toBeUndefined();
  });

  it('does not find ja after 1 000 junk entries', () => {
    expect(localeFromAcceptLanguage('xx;q=0.1,'.repeat(1000))).toBeUndefined();
    expect(localeFromAcceptLanguage(`${'xx;q=0.1,'.repeat(1000)}ja`)).toBeUndefined();
  });

  it('finds ja as the 32nd entry but not as the 33rd', () => {
    expect(localeFromAcceptLanguage(`${'xx,'.repeat(31)}ja`)).toBe('ja');
    expect(localeFromAcceptLanguage(`${'xx,'.repeat(32)}ja`)).toBeUndefined();
  });
});

describe('detectRootLocale', () => {
  it('trusts a valid cookie over Accept-Language', () => {
    expect(detectRootLocale({ cookie: 'ja', acceptLanguage: 'zh-CN' })).toEqual({ locale: 'ja', source: 'cookie' });
    expect(detectRootLocale({ cookie: 'zh-CN', acceptLanguage: 'ja' })).toEqual({ locale: 'zh-CN', source: 'cookie' });
    expect(detectRootLocale({ cookie: 'en', acceptLanguage: 'ja' })).toEqual({ locale: 'en', source: 'cookie' });
  });

  it.each([[undefined], [''], ['../../etc'], ['x'.repeat(4096)], ['fr'], ['ZH-cn'], ['JA'], [' ja']])('ignores cookie %j', (cookie) => {
    expect(detectRootLocale({ cookie, acceptLanguage: 'ja' })).toEqual({ locale: 'ja', source: 'accept-language' });
    expect(detectRootLocale({ cookie, acceptLanguage: 'fr' })).toEqual({ locale: 'en', source: 'fallback' });
    expect(detectRootLocale({ cookie, acceptLanguage: null })).toEqual({ locale: 'en', source: 'fallback' });
  });

  it('reports Accept-Language as the source when it decided English', () => {
    expect(detectRootLocale({ cookie: undefined, acceptLanguage: 'en-GB' })).toEqual({
      locale: 'en',
      source: 'accept-language',
    });
  });

  it('falls back to English without cookie or header', () => {
    expect(detectRootLocale({ cookie: undefined, acceptLanguage: undefined })).toEqual({
      locale: 'en',
      source: 'fallback',
    });
  });
});
