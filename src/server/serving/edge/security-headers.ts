import { BUILD_ASSETS_PREFIX } from '@/shared/site-paths';
import type { HeaderList } from '@/server/serving/header-list';
import { CONTENT_SECURITY_POLICY_HEADER, STRICT_CONTENT_SECURITY_POLICY } from './content-security-policy';

/** Headers that govern a document; a script or stylesheet has no use for them. */
const DOCUMENT_HEADERS = [
  CONTENT_SECURITY_POLICY_HEADER,
  // Pages replace it by their own (next-compat/prerendered-pages, next-compat/not-found, hand-over-to-next.ts).
  STRICT_CONTENT_SECURITY_POLICY,
  'X-Frame-Options',
  'DENY',
  'Referrer-Policy',
  'strict-origin-when-cross-origin',
  'Permissions-Policy',
  'camera=(), microphone=(), geolocation=(), payment=(), usb=(), interest-cohort=()',
];

/** Two years, as the HSTS preload list asks; only when TLS ends at our load balancer. */
const HSTS = ['Strict-Transport-Security', 'max-age=63072000; includeSubDomains'];
const NOSNIFF = ['X-Content-Type-Options', 'nosniff'];

/**
 * The security headers of a response, built once per server: every response
 * gets nosniff (and HSTS when asked); all but the build's hashed assets get
 * the document headers too, which keeps first-visit bytes down.
 */
export function securityHeaders(hsts: boolean): (pathname: string) => HeaderList {
  const assets = [...NOSNIFF, ...(hsts ? HSTS : [])];
  const documents = [...assets, ...DOCUMENT_HEADERS];
  return (pathname) => (pathname.startsWith(BUILD_ASSETS_PREFIX) ? assets : documents);
}
