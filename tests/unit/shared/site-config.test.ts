import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';

import { BUILT_SITE_ORIGIN } from '@/shared/site-origin.mjs';

const VARIABLES = ['SITE_NAME', 'SITE_DESCRIPTION', 'SITE_KEYWORDS', 'SITE_URL', 'NEXT_PHASE'] as const;

/** Imports a fresh copy of the module, which reads the environment when it loads. */
async function load(env: Partial<Record<(typeof VARIABLES)[number], string>> = {}) {
  for (const name of VARIABLES) vi.stubEnv(name, env[name]);
  vi.resetModules();
  const { siteConfig } = await import('@/shared/site-config');
  return siteConfig;
}

beforeEach(() => {
  vi.resetModules();
});

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('siteConfig', () => {
  it('defaults to Meridian with no description, keywords or URL', async () => {
    expect(await load()).toEqual({ name: 'Meridian', description: '', keywords: [], url: undefined });
  });

  it('reads and trims the name and description', async () => {
    const config = await load({ SITE_NAME: '  Atlas ', SITE_DESCRIPTION: ' A site. ' });
    expect(config.name).toBe('Atlas');
    expect(config.description).toBe('A site.');
  });

  it('falls back to Meridian for a blank name', async () => {
    expect((await load({ SITE_NAME: '   ' })).name).toBe('Meridian');
  });

  it('splits and trims the keywords, dropping empty ones', async () => {
    expect((await load({ SITE_KEYWORDS: ' sre, kubernetes ,,i18n , ' })).keywords).toEqual(['sre', 'kubernetes', 'i18n']);
  });

  it('keeps only the origin of SITE_URL', async () => {
    expect((await load({ SITE_URL: ' https://example.com/some/path?q=1 ' })).url).toBe('https://example.com');
    expect((await load({ SITE_URL: 'http://localhost:3000' })).url).toBe('http://localhost:3000');
  });

  it('links to the stand-in origin while next build prerenders, whatever SITE_URL says: the server swaps it where the site runs', async () => {
    expect((await load({ NEXT_PHASE: 'phase-production-build' })).url).toBe(BUILT_SITE_ORIGIN);
    expect((await load({ NEXT_PHASE: 'phase-production-build', SITE_URL: 'https://example.com' })).url).toBe(BUILT_SITE_ORIGIN);
    expect((await load({ NEXT_PHASE: 'phase-production-server', SITE_URL: 'https://example.com' })).url).toBe('https://example.com');
  });

  it('treats an empty SITE_URL as unset', async () => {
    expect((await load({ SITE_URL: '' })).url).toBeUndefined();
  });

  it('keeps an IP address or an international name (as punycode) as the host', async () => {
    expect((await load({ SITE_URL: 'http://[::1]:3000/' })).url).toBe('http://[::1]:3000');
    expect((await load({ SITE_URL: 'https://bücher.example' })).url).toBe('https://xn--bcher-kva.example');
  });

  it.each([
    'not a url',
    '/relative',
    'example.com',
    'ftp://example.com',
    'javascript:alert(1)',
    'https://a"b.example',
    "https://a'b.example",
  ])('rejects SITE_URL %j with an error naming SITE_URL', async (value) => {
    await expect(load({ SITE_URL: value })).rejects.toThrow(/SITE_URL/);
  });

  it('is frozen', async () => {
    expect(Object.isFrozen(await load())).toBe(true);
  });
});
