import { describe, expect, it } from 'vitest';
import { routeManifest } from '@/freshness/route-manifest';

describe('routeManifest', () => {
  const manifest = routeManifest({ id: 'b1', timestamp: 42 }, ['/ja/about', '/en', '/zh-CN', '/en/about', '/ja', '/elsewhere']);

  it('carries the build it describes', () => {
    expect(manifest).toMatchObject({ id: 'b1', timestamp: 42, defaultLocale: 'en', locales: ['en', 'zh-CN', 'ja'] });
  });

  it('lists the prerendered pages by locale, as public paths (English without a prefix)', () => {
    expect(manifest.prerendered).toEqual({ en: ['/', '/about'], 'zh-CN': ['/zh-CN'], ja: ['/ja', '/ja/about'] });
  });

  it('states the redirects the locale rules always make', () => {
    expect(manifest.redirects).toContainEqual({ source: '/en/:path*', destination: '/:path*', status: 308 });
    expect(manifest.redirects.find((rule) => rule.source === '/')).toMatchObject({ destination: '/:locale', status: 307 });
  });
});
