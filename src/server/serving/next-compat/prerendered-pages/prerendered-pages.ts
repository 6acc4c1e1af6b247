import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { contentSecurityPolicy, inlineScriptHashes } from '@/server/serving/edge/content-security-policy';
import type { HeaderList } from '@/server/serving/header-list';
import type { ContentCoding } from '@/server/serving/negotiation/negotiation';
import { prerenderedPageRoutes } from '../build-output.mjs';
import { withSiteOrigin } from '../site-origin';

export interface PrerenderedPage {
  bodies: Record<ContentCoding, Buffer>;
  /** A strong tag per coding: RFC 9110 §8.8.3 gives each content-coded representation its own. */
  etags: Record<ContentCoding, string>;
  /** When the build wrote the page, as an HTTP date (If-Modified-Since compares with it). */
  lastModified: string;
  /** Cache-Control and the validators of each coding: what a 304 repeats. */
  cacheHeaders: Record<ContentCoding, HeaderList>;
  /** Everything a 200 in each coding says about its body, built once (Vary aside: it depends on the URL). */
  bodyHeaders: Record<ContentCoding, HeaderList>;
  /** The hash sources of its inline scripts (Next's bootstrap and the router payload), in every coding the same. */
  scriptHashes: readonly string[];
  /** Its Content-Security-Policy: those scripts and no other inline one. */
  policy: string;
}

/** Revalidate on every visit: a new build's HTML must never wait behind a cache. */
const CACHE_CONTROL = 'public, max-age=0, must-revalidate';

function headersOf(body: Buffer, coding: ContentCoding, cacheHeaders: HeaderList): HeaderList {
  return [
    ...cacheHeaders,
    'Content-Type',
    'text/html; charset=utf-8',
    ...(coding === 'identity' ? [] : ['Content-Encoding', coding]),
    'Content-Length',
    String(body.length),
  ];
}

/** Each prerendered page's HTML file, by the route's internal path (`/en`, `/ja`, ...). */
function prerenderedHtmlFiles(dir: string): Map<string, string> {
  const files = new Map<string, string>();
  for (const route of prerenderedPageRoutes(path.join(dir, '.next'))) {
    const file = path.join(dir, '.next', 'server', 'app', `${route}.html`);
    if (existsSync(file)) files.set(route, file);
  }
  return files;
}

/** A prerendered page's HTML as it is sent: linking to `siteOrigin` (site-origin.ts). */
function pageHtml(file: string, siteOrigin: string): Buffer {
  return withSiteOrigin(readFileSync(file), siteOrigin);
}

/**
 * The hashes of each prerendered page's inline scripts, by its internal path: whoever sends
 * the page, from memory or Next, its Content-Security-Policy allows them.
 */
export function loadPageScriptHashes(dir: string, siteOrigin: string): Map<string, readonly string[]> {
  const hashes = new Map<string, readonly string[]>();
  for (const [route, file] of prerenderedHtmlFiles(dir)) hashes.set(route, inlineScriptHashes(pageHtml(file, siteOrigin).toString('utf8')));
  return hashes;
}

/**
 * The HTML `next build` prerendered for each page route, linking to `siteOrigin`, read,
 * compressed and its inline scripts hashed once at start-up, keyed by the route's internal
 * path: the pages answered from memory.
 */
export function loadPrerenderedPages(dir: string, siteOrigin: string): Map<string, PrerenderedPage> {
  const pages = new Map<string, PrerenderedPage>();
  for (const [route, file] of prerenderedHtmlFiles(dir)) {
    const identity = pageHtml(file, siteOrigin);
    const scriptHashes = inlineScriptHashes(identity.toString('utf8'));
    const bodies = { identity, gzip: gzipSync(identity, { level: 9 }), br: brotliCompressSync(identity) };
    const hash = createHash('sha1').update(identity).digest('base64url');
    const etags = { identity: `"${hash}"`, gzip: `"${hash}-gzip"`, br: `"${hash}-br"` };
    const lastModified = statSync(file).mtime.toUTCString();
    const cacheHeadersOf = (coding: ContentCoding) => [
      'Cache-Control',
      CACHE_CONTROL,
      'ETag',
      etags[coding],
      'Last-Modified',
      lastModified,
    ];
    const cacheHeaders = { identity: cacheHeadersOf('identity'), gzip: cacheHeadersOf('gzip'), br: cacheHeadersOf('br') };
    pages.set(route, {
      bodies,
      etags,
      lastModified,
      cacheHeaders,
      bodyHeaders: {
        identity: headersOf(bodies.identity, 'identity', cacheHeaders.identity),
        gzip: headersOf(bodies.gzip, 'gzip', cacheHeaders.gzip),
        br: headersOf(bodies.br, 'br', cacheHeaders.br),
      },
      scriptHashes,
      policy: contentSecurityPolicy(scriptHashes),
    });
  }
  return pages;
}
