import type { IncomingMessage, ServerResponse } from 'node:http';
import { answerAnyTagMatch } from '@/server/serving/negotiation/negotiation';
import { answerPlainText } from '@/server/serving/plain-text';
import { renderRobots, renderSitemap } from './sitemap';

export interface CrawlerFiles {
  robots: Buffer;
  /** Absent without a site URL: a sitemap needs absolute URLs, and the request's Host is not ours to trust. */
  sitemap: Buffer | undefined;
}

/** Both files, made once at start-up from the configured origin and this build's pages. */
export function createCrawlerFiles(siteUrl: string | undefined, internalPaths: Iterable<string>): CrawlerFiles {
  return {
    robots: Buffer.from(renderRobots(siteUrl)),
    sitemap: siteUrl ? Buffer.from(renderSitemap(siteUrl, internalPaths)) : undefined,
  };
}

const FILES = { '/robots.txt': 'text/plain; charset=utf-8', '/sitemap.xml': 'application/xml; charset=utf-8' } as const;

/**
 * Answers `/robots.txt` and `/sitemap.xml` from memory; returns false for any
 * other path. `public/robots.txt` stays for Next's own server.js, which the
 * tests and the benchmark run as a reference; ours answers first.
 */
export function serveCrawlerFile(req: IncomingMessage, res: ServerResponse, pathname: string, files: CrawlerFiles): boolean {
  if (pathname !== '/robots.txt' && pathname !== '/sitemap.xml') return false;
  const body = pathname === '/robots.txt' ? files.robots : files.sitemap;
  if (!body) {
    answerPlainText(req, res, 404, 'Not Found');
    return true;
  }
  res.setHeader('Cache-Control', 'public, max-age=3600');
  if (answerAnyTagMatch(req, res)) return true;
  res.setHeader('Content-Type', FILES[pathname]);
  res.statusCode = 200;
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
  return true;
}
