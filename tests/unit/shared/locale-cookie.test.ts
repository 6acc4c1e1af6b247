import { describe, expect, it } from 'vitest';
import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS, localeCookieAttributes, serializeLocaleCookie } from '@/shared/locale-cookie';

describe('locale cookie', () => {
  it('is named i18n_redirected and lasts a year', () => {
    expect(LOCALE_COOKIE).toBe('i18n_redirected');
    expect(LOCALE_COOKIE_MAX_AGE_SECONDS).toBe(31_536_000);
  });

  it('serializes for document.cookie', () => {
    expect(serializeLocaleCookie('ja', false)).toBe('i18n_redirected=ja; Path=/; Max-Age=31536000; SameSite=Lax');
    expect(serializeLocaleCookie('zh-CN', false)).toBe('i18n_redirected=zh-CN; Path=/; Max-Age=31536000; SameSite=Lax');
  });

  it('adds Secure on HTTPS', () => {
    expect(serializeLocaleCookie('ja', true)).toBe('i18n_redirected=ja; Path=/; Max-Age=31536000; SameSite=Lax; Secure');
  });

  it('gives the proxy the same attributes', () => {
    expect(localeCookieAttributes(false)).toEqual({ path: '/', maxAge: 31_536_000, sameSite: 'lax', secure: false });
    expect(localeCookieAttributes(true)).toEqual({ path: '/', maxAge: 31_536_000, sameSite: 'lax', secure: true });
  });
});
