import type { ServerResponse } from 'node:http';

/**
 * The Content-Security-Policy. Scripts and styles allow 'unsafe-inline' because
 * Next writes inline bootstrap scripts into prerendered HTML, and a per-request
 * nonce would force every page to render per request; no 'unsafe-eval' in
 * production. Everything else is same-origin only.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'unsafe-inline'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'self'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

/** Headers that govern a document; a script or stylesheet has no use for them. */
const DOCUMENT_HEADERS: [string, string][] = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'],
];

/** Hashed build assets: immutable code and styles, fetched on every first visit. */
const BUILD_ASSETS = '/_next/static/';

/** Two years, as the HSTS preload list asks; only when TLS ends at our load balancer. */
const HSTS = 'max-age=63072000; includeSubDomains';

/**
 * Every response gets nosniff (and HSTS when asked); all but the build's hashed
 * assets get the document headers too, which keeps first-visit bytes down.
 */
export function setSecurityHeaders(res: ServerResponse, pathname: string, hsts: boolean): void {
  res.setHeader('X-Content-Type-Options', 'nosniff');
  if (hsts) res.setHeader('Strict-Transport-Security', HSTS);
  if (pathname.startsWith(BUILD_ASSETS)) return;
  for (const [name, value] of DOCUMENT_HEADERS) res.setHeader(name, value);
}
