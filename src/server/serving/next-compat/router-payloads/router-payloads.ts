import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import type { HeaderList } from '@/server/serving/header-list';
import type { ContentCoding } from '@/server/serving/negotiation/negotiation';
import { ROUTER_VARY } from '@/shared/router-headers';
import { withSiteOrigin } from '../site-origin';

/** One router payload the build prerendered, in every coding, with the headers Next sends with it. */
export interface RouterPayload {
  bodies: Record<ContentCoding, Buffer>;
  /** Everything a 200 in each coding says of its body (Vary aside: the root adds its own). */
  headers: Record<ContentCoding, HeaderList>;
}

/** A prerendered page's router payloads: the whole page and each segment the segment cache asks for. */
export interface PagePayloads {
  full: RouterPayload;
  /** By the segment path the router sends in `Next-Router-Segment-Prefetch` (`/_tree`, `/$d$locale`, ...). */
  segments: ReadonlyMap<string, RouterPayload>;
  /** The headers of Next's 404 to a segment the page does not have: no body, no coding. */
  missingSegment: HeaderList;
}

interface PageMeta {
  headers?: Record<string, string>;
  segmentPaths?: string[];
}

interface PrerenderManifest {
  routes: Record<string, { routeType?: string; initialStatus?: number; initialRevalidateSeconds?: number | false }>;
}

/** What Next sends for a prerendered page that never revalidates (its CACHE_ONE_YEAR). */
const NEVER_REVALIDATED = 's-maxage=31536000';
export const PAYLOAD_VARY = `${ROUTER_VARY}, Accept-Encoding`;

/**
 * Next's headers for a prerendered payload, in the order it writes them:
 * its page's `.meta` headers (less the cache tags, which Next keeps to itself),
 * and for the whole page Next's own `x-nextjs-prerender` added to the one the
 * meta file holds, while a segment says it is a partial (`x-nextjs-postponed: 2`)
 * without the stale time.
 */
function nextHeaders(meta: PageMeta, deploymentId: string, kind: 'full' | 'segment'): HeaderList {
  const stored = meta.headers ?? {};
  const list: string[] = ['Cache-Control', NEVER_REVALIDATED, 'x-nextjs-cache', 'HIT', 'x-nextjs-deployment-id', deploymentId];
  if (kind === 'segment') list.push('x-nextjs-postponed', '2');
  list.push('x-nextjs-prerender', kind === 'full' ? `${stored['x-nextjs-prerender'] ?? '1'}, 1` : '1');
  if (kind === 'full' && stored['x-nextjs-stale-time']) list.push('x-nextjs-stale-time', stored['x-nextjs-stale-time']);
  return list;
}

function payloadOf(identity: Buffer, common: HeaderList): RouterPayload {
  const bodies = { identity, gzip: gzipSync(identity, { level: 9 }), br: brotliCompressSync(identity) };
  const headersOf = (coding: ContentCoding): HeaderList => [
    ...common,
    'Content-Type',
    'text/x-component',
    ...(coding === 'identity' ? [] : ['Content-Encoding', coding]),
    'Content-Length',
    String(bodies[coding].length),
  ];
  return { bodies, headers: { identity: headersOf('identity'), gzip: headersOf('gzip'), br: headersOf('br') } };
}

/**
 * The router payloads `next build` prerendered for each page route (`/en`,
 * `/ja`, ...): `<route>.rsc`, and `<route>.segments/<segment>.segment.rsc` for
 * each segment its `.meta` names, linking to `siteOrigin`, read and compressed
 * once at start-up, keyed by the route's internal path. A page that revalidates,
 * or whose files are missing, is left to Next.
 */
export function loadRouterPayloads(dir: string, deploymentId: string, siteOrigin: string): Map<string, PagePayloads> {
  const app = path.join(dir, '.next', 'server', 'app');
  const manifest = JSON.parse(readFileSync(path.join(dir, '.next', 'prerender-manifest.json'), 'utf8')) as PrerenderManifest;
  const pages = new Map<string, PagePayloads>();
  for (const [route, entry] of Object.entries(manifest.routes)) {
    if (entry.routeType !== 'page' || (entry.initialStatus ?? 200) !== 200 || route.startsWith('/_')) continue;
    if (entry.initialRevalidateSeconds !== false) continue;
    const metaFile = path.join(app, `${route}.meta`);
    const fullFile = path.join(app, `${route}.rsc`);
    if (!existsSync(metaFile) || !existsSync(fullFile)) continue;
    const meta = JSON.parse(readFileSync(metaFile, 'utf8')) as PageMeta;
    const segmentHeaders = nextHeaders(meta, deploymentId, 'segment');
    const segments = new Map<string, RouterPayload>();
    for (const segment of meta.segmentPaths ?? []) {
      const file = path.join(app, `${route}.segments`, `${segment}.segment.rsc`);
      if (existsSync(file)) segments.set(segment, payloadOf(withSiteOrigin(readFileSync(file), siteOrigin), segmentHeaders));
    }
    pages.set(route, {
      full: payloadOf(withSiteOrigin(readFileSync(fullFile), siteOrigin), nextHeaders(meta, deploymentId, 'full')),
      segments,
      missingSegment: [...segmentHeaders, 'Content-Length', '0'],
    });
  }
  return pages;
}
