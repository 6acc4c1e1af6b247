import { describe, expect, it } from 'vitest';
import { renderRobots, renderSitemap } from '@/server/serving/crawlers/sitemap';

const PAGES = ['/en', '/zh-CN', '/ja', '/en/about', '/ja/about', '/_not-found', '/api/x'];

describe('renderSitemap', () => {
  const xml = renderSitemap('https://site.example', PAGES);
  const urls = [...xml.matchAll(/<url>([\s\S]*?)<\/url>/g)].map((match) => match[1] as string);

  it('lists every page of every locale once, absolute, from the site URL', () => {
    expect(urls.map((url) => /<loc>(.*)<\/loc>/.exec(url)?.[1])).toEqual([
      'https://site.example/',
      'https://site.example/zh-CN',
      'https://site.example/ja',
      'https://site.example/about',
      'https://site.example/ja/about',
    ]);
  });

  it('gives each its alternates in the locales that have the page, and x-default', () => {
    const links = (url: string) => [...url.matchAll(/hreflang="([^"]+)" href="([^"]+)"/g)].map((match) => `${match[1]} ${match[2]}`);
    expect(links(urls[1] as string)).toEqual([
      'en https://site.example/',
      'zh-CN https://site.example/zh-CN',
      'ja https://site.example/ja',
      'x-default https://site.example/',
    ]);
    expect(links(urls[4] as string)).toEqual([
      'en https://site.example/about',
      'ja https://site.example/ja/about',
      'x-default https://site.example/about',
    ]);
  });

  it('is a sitemaps.org urlset with the xhtml namespace', () => {
    expect(
      xml.startsWith(
        '<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:xhtml="http://www.w3.org/1999/xhtml">',
      ),
    ).toBe(true);
    expect(xml.trimEnd().endsWith('</urlset>')).toBe(true);
  });

  it('escapes what XML must not see raw', () => {
    expect(renderSitemap('https://site.example', ['/en/a&b'])).toContain('<loc>https://site.example/a&amp;b</loc>');
  });
});

describe('renderRobots', () => {
  it('names the sitemap, absolute, only when there is a site URL', () => {
    expect(renderRobots('https://site.example')).toBe('User-agent: *\nAllow: /\n\nSitemap: https://site.example/sitemap.xml\n');
    expect(renderRobots(undefined)).toBe('User-agent: *\nAllow: /\n');
  });
});
