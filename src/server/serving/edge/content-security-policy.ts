import { createHash, randomBytes } from 'node:crypto';

export const CONTENT_SECURITY_POLICY_HEADER = 'Content-Security-Policy';

/**
 * The Content-Security-Policy of an answer whose page may run the inline
 * scripts `scriptSources` allows (`'sha256-…'` hashes, a `'nonce-…'`): no
 * `'unsafe-inline'` and no `'unsafe-eval'` for scripts, and scripts from
 * anywhere but the site itself refused. Styles keep `'unsafe-inline'`: Next
 * inlines the stylesheets (`experimental.inlineCss`) and React writes style
 * attributes. Everything else is same-origin only.
 */
export function contentSecurityPolicy(scriptSources: readonly string[] = []): string {
  return [
    "default-src 'self'",
    ["script-src 'self'", ...scriptSources].join(' '),
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join('; ');
}

/** The policy of answers that are no page of ours: no inline script at all. */
export const STRICT_CONTENT_SECURITY_POLICY = contentSecurityPolicy();

/** A script element without `src`: its text is what runs, and what a hash names. */
const INLINE_SCRIPT = /<script\b(?![^>]*\ssrc=)[^>]*>([\s\S]*?)<\/script>/gi;

/** Where each inline script's text starts and ends in `html`. */
export function inlineScriptRanges(html: string): { start: number; end: number }[] {
  const ranges: { start: number; end: number }[] = [];
  for (const match of html.matchAll(INLINE_SCRIPT)) {
    const text = match[1] ?? '';
    const end = (match.index ?? 0) + match[0].length - '</script>'.length;
    ranges.push({ start: end - text.length, end });
  }
  return ranges;
}

/** The CSP source naming a script's text (CSP 3 §8.4: its UTF-8 bytes' SHA-256, in base64). */
export function scriptHashSource(hash: ReturnType<typeof createHash>): string {
  return `'sha256-${hash.digest('base64')}'`;
}

/** The hash sources of every inline script of `html`, in the order they appear. */
export function inlineScriptHashes(html: string): string[] {
  return inlineScriptRanges(html).map(({ start, end }) => scriptHashSource(createHash('sha256').update(html.slice(start, end), 'utf8')));
}

/**
 * A fresh nonce source for a page Next renders now (Next reads it from the
 * request's policy and puts it on every script it writes). Taken before Next
 * is loaded: Next wraps the crypto functions its renders call.
 */
const randomBytesBeforeNext = randomBytes;
export function nonceSource(): string {
  return `'nonce-${randomBytesBeforeNext(18).toString('base64')}'`;
}
