import type { IncomingMessage } from 'node:http';
import { peerIsTrusted, schemeOf, type ProxyTrust } from '@/server/serving/edge/client-address';

/** Why a beacon lacks same-origin evidence, or null when it has it. */
export type OriginRefusal = 'cross_site' | 'cross_origin' | 'no_origin' | null;

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim();
}

/** `scheme://host[:port]` normalised as URL does (lower case, default port left out); null when it is no origin. */
function normalisedOrigin(text: string): string | null {
  if (!URL.canParse(text)) return null;
  const url = new URL(text);
  return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
}

/** The site's origin as the visitor addressed it: Host (X-Forwarded-Host from a trusted proxy) and the scheme they used. */
function requestOrigin(req: IncomingMessage, trust: ProxyTrust): string | null {
  const forwardedHost = peerIsTrusted(req, trust) ? firstValue(req.headers['x-forwarded-host']) : undefined;
  const host = forwardedHost ?? req.headers.host;
  return host ? normalisedOrigin(`${schemeOf(req, trust)}://${host}`) : null;
}

/**
 * Whether a beacon comes from one of the site's own pages. Browsers say so themselves on every
 * POST: `Sec-Fetch-Site` (on secure origins, which the page cannot change) and `Origin`. A
 * beacon counts only with `Sec-Fetch-Site: same-origin`, or, where browsers send no Sec-Fetch
 * headers (plain HTTP), an `Origin` equal to the site's: the one the visitor addressed, or
 * SITE_URL's. A request without either is no browser's page, and one a cross-site page sent
 * says so. Anything can forge these headers, so they stop other sites' pages, not scripts:
 * the page-view token is what stops those.
 */
export function originRefusal(req: IncomingMessage, trust: ProxyTrust, siteOrigin: string | undefined): OriginRefusal {
  const fetchSite = req.headers['sec-fetch-site'];
  if (fetchSite !== undefined) return fetchSite === 'same-origin' ? null : 'cross_site';
  const origin = req.headers.origin;
  if (origin === undefined) return 'no_origin';
  const sent = normalisedOrigin(origin);
  if (sent !== null && (sent === requestOrigin(req, trust) || sent === siteOrigin)) return null;
  return 'cross_origin';
}
