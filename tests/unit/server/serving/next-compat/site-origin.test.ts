import { describe, expect, it } from 'vitest';
import { withSiteOrigin } from '@/server/serving/next-compat/site-origin';
import { BUILT_SITE_ORIGIN } from '@/shared/site-origin.mjs';

describe('withSiteOrigin', () => {
  const page = Buffer.from(`<link href="${BUILT_SITE_ORIGIN}/ja"/><link href="${BUILT_SITE_ORIGIN}/"/>日本語`);

  it('swaps every stand-in for the origin, the bytes around them untouched', () => {
    expect(withSiteOrigin(page, 'https://example.com:8443').toString()).toBe(
      '<link href="https://example.com:8443/ja"/><link href="https://example.com:8443/"/>日本語',
    );
  });

  it('leaves relative links where the origin is none', () => {
    expect(withSiteOrigin(page, '').toString()).toBe('<link href="/ja"/><link href="/"/>日本語');
  });

  it('hands back a body without the stand-in as it is', () => {
    const body = Buffer.from('0:["$","p",null,{}]\n');
    expect(withSiteOrigin(body, 'https://example.com')).toBe(body);
  });
});
