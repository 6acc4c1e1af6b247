import { BUILT_SITE_ORIGIN } from '@/shared/site-origin.mjs';

const PLACEHOLDER = Buffer.from(BUILT_SITE_ORIGIN);

/**
 * A prerendered page or router payload as this server sends it: the stand-in origin the build
 * wrote into its links (src/shared/site-origin.mjs) swapped for `origin`, SITE_URL's, or for
 * '' (relative links). The build refused any stand-in inside a length-prefixed text row, so no
 * row's length changes meaning.
 */
export function withSiteOrigin(body: Buffer, origin: string): Buffer {
  let at = body.indexOf(PLACEHOLDER);
  if (at < 0) return body;
  const replacement = Buffer.from(origin);
  const parts: Buffer[] = [];
  let from = 0;
  while (at >= 0) {
    parts.push(body.subarray(from, at), replacement);
    from = at + PLACEHOLDER.length;
    at = body.indexOf(PLACEHOLDER, from);
  }
  parts.push(body.subarray(from));
  return Buffer.concat(parts);
}
