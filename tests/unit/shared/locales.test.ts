import { describe, expect, it } from 'vitest';
import {
  canonicalLocale,
  DEFAULT_LOCALE,
  isLocale,
  localeOfPath,
  localizedPath,
  LOCALES,
  NATIVE_NAMES,
  pathWithinLocale,
} from '@/shared/locales';

describe('the locale list', () => {
  it('is English, Simplified Chinese and Japanese, English by default', () => {
    expect(LOCALES).toEqual(['en', 'zh-CN', 'ja']);
    expect(DEFAULT_LOCALE).toBe('en');
    expect(NATIVE_NAMES).toEqual({ en: 'English', 'zh-CN': '简体中文', ja: '日本語' });
  });
});

describe('isLocale', () => {
  it.each(['en', 'zh-CN', 'ja'])('accepts %s', (value) => {
    expect(isLocale(value)).toBe(true);
  });

  it.each(['', 'EN', 'zh-cn', 'zh', 'ja-JP', 'fr', ' ja', '../../etc', undefined, null, 1, {}, ['ja']])('rejects %j', (value) => {
    expect(isLocale(value)).toBe(false);
  });
});

describe('canonicalLocale', () => {
  it.each([
    ['en', 'en'],
    ['EN', 'en'],
    ['zh-cn', 'zh-CN'],
    ['ZH-CN', 'zh-CN'],
    ['zh-CN', 'zh-CN'],
    ['Ja', 'ja'],
  ])('%s → %s', (value, locale) => {
    expect(canonicalLocale(value)).toBe(locale);
  });

  it.each(['', 'zh', 'zh_CN', 'ja-JP', 'fr', ' en', 'en/'])('%j → undefined', (value) => {
    expect(canonicalLocale(value)).toBeUndefined();
  });
});

describe('localizedPath', () => {
  it.each([
    ['en', undefined, '/'],
    ['en', '/', '/'],
    ['en', '/foo', '/foo'],
    ['en', 'foo', '/foo'],
    ['ja', undefined, '/ja'],
    ['ja', '/', '/ja'],
    ['ja', '/foo', '/ja/foo'],
    ['ja', 'foo/bar', '/ja/foo/bar'],
    ['zh-CN', '/a?b=1#c', '/zh-CN/a?b=1#c'],
  ] as const)('(%s, %j) → %s', (locale, path, expected) => {
    expect(localizedPath(locale, path)).toBe(expected);
  });
});

describe('pathWithinLocale', () => {
  it.each([
    ['/', '/'],
    ['', '/'],
    ['/foo', '/foo'],
    ['/foo/bar', '/foo/bar'],
    ['/ja', '/'],
    ['/ja/', '/'],
    ['/ja/x', '/x'],
    ['/zh-CN/a/b', '/a/b'],
    ['/en', '/'],
    ['/en/x', '/x'],
    ['/JA/x', '/JA/x'],
    ['/zh-cn/x', '/zh-cn/x'],
    ['/ja-JP/x', '/ja-JP/x'],
    ['/japan', '/japan'],
  ])('%j → %s', (pathname, expected) => {
    expect(pathWithinLocale(pathname)).toBe(expected);
  });

  it('round-trips with localizedPath', () => {
    for (const locale of LOCALES) {
      for (const path of ['/', '/foo', '/a/b']) {
        expect(pathWithinLocale(localizedPath(locale, path))).toBe(path);
        expect(localeOfPath(localizedPath(locale, path))).toBe(locale);
      }
    }
  });
});

describe('localeOfPath', () => {
  it.each([
    ['/', 'en'],
    ['', 'en'],
    ['/foo', 'en'],
    ['/ja', 'ja'],
    ['/ja/x', 'ja'],
    ['/zh-CN', 'zh-CN'],
    ['/zh-CN/a', 'zh-CN'],
    ['/zh-cn/a', 'en'],
    ['/en/x', 'en'],
    ['/japan', 'en'],
    ['/foo/ja', 'en'],
  ])('%j → %s', (pathname, locale) => {
    expect(localeOfPath(pathname)).toBe(locale);
  });
});
