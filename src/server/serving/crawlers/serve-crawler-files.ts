import type { IncomingMessage, ServerResponse } from 'node:http';
import { serveFile } from '@/server/serving/files/serve-file';
import { createInMemoryFile, type InMemoryFile } from '@/server/serving/files/in-memory-file';
import { answerPlainText } from '@/server/serving/plain-text';
import { renderRobots, renderSitemap } from './sitemap';

export interface CrawlerFiles {
  robots: InMemoryFile;
  /** Absent without a site URL: a sitemap needs absolute URLs, and the request's Host is not ours to trust. */
  sitemap: InMemoryFile | undefined;
}

const CACHE_CONTROL = 'public, max-age=3600';

/** Both files, made once at start-up from the configured origin and this build's pages, dated as the build. */
export function createCrawlerFiles(siteUrl: string | undefined, internalPaths: Iterable<string>, builtAt: Date): CrawlerFiles {
  const file = (body: string, contentType: string) =>
    createInMemoryFile({ body: Buffer.from(body), contentType, cacheControl: CACHE_CONTROL, lastModified: builtAt });
  return {
    robots: file(renderRobots(siteUrl), 'text/plain; charset=utf-8'),
    sitemap: siteUrl ? file(renderSitemap(siteUrl, internalPaths), 'application/xml; charset=utf-8') : undefined,
  };
}

/**
 * Answers `/robots.txt` and `/sitemap.xml` from memory; returns false for any
 * other path. `public/robots.txt` stays for Next's own server.js, which the
 * tests and the benchmark run as a reference; ours answers first.
 */
export function serveCrawlerFile(req: IncomingMessage, res: ServerResponse, pathname: string, files: CrawlerFiles): boolean {
  if (pathname !== '/robots.txt' && pathname !== '/sitemap.xml') return false;
  const file = pathname === '/robots.txt' ? files.robots : files.sitemap;
  if (file) serveFile(req, res, file);
  else answerPlainText(req, res, 404, 'Not Found');
  return true;
}
