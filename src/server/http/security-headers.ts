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

const HEADERS: [string, string][] = [
  ['Content-Security-Policy', CONTENT_SECURITY_POLICY],
  ['X-Content-Type-Options', 'nosniff'],
  ['X-Frame-Options', 'DENY'],
  ['Referrer-Policy', 'strict-origin-when-cross-origin'],
  ['Permissions-Policy', 'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()'],
];

/** Two years, as the HSTS preload list asks; only when TLS ends at our load balancer. */
const HSTS = 'max-age=63072000; includeSubDomains';

export function setSecurityHeaders(res: ServerResponse, hsts: boolean): void {
  for (const [name, value] of HEADERS) res.setHeader(name, value);
  if (hsts) res.setHeader('Strict-Transport-Security', HSTS);
}
