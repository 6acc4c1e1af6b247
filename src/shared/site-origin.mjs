// SITE_URL is where the site runs, not where it was built: one image is promoted from
// staging to production. Plain JavaScript, for the build's second half to read too.

/**
 * The origin `next build` writes into the prerendered pages' canonical and `hreflang`
 * links. No such host can exist (`.invalid`, RFC 6761), and the server swaps it for
 * SITE_URL's origin, or for nothing (relative links), before any page leaves it.
 */
export const BUILT_SITE_ORIGIN = 'https://site-url.meridian.invalid';

/**
 * A host name of letters, digits, hyphens and dots (an international one as its punycode, as
 * URL writes it), or an IP address. WHATWG URL lets `"`, `'`, `{` and more through in a host,
 * which would break out of the attributes and payload rows the origin is written into.
 */
const PLAIN_HOST = /^(?:[a-z0-9-]+\.)*[a-z0-9-]+\.?$|^\[[0-9a-f:.]+\]$/;

/**
 * What is wrong with a SITE_URL, or null when it is unset, blank or an absolute http(s) URL
 * with a plain host.
 * @param {string | undefined} value
 * @returns {string | null}
 */
export function siteUrlProblem(value) {
  const trimmed = value?.trim();
  if (!trimmed) return null;
  let parsed;
  try {
    parsed = new URL(trimmed);
  } catch {
    return 'expected an absolute http(s) URL such as https://example.com';
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') return 'expected an http or https URL';
  if (!PLAIN_HOST.test(parsed.hostname)) return 'expected a host of letters, digits, hyphens and dots, or an IP address';
  return null;
}

/**
 * SITE_URL's origin (scheme, host and port; path, query and credentials dropped): undefined
 * when unset or blank; an error naming SITE_URL for anything else `siteUrlProblem` refuses.
 * @param {string | undefined} value
 * @returns {string | undefined}
 */
export function siteOrigin(value) {
  const problem = siteUrlProblem(value);
  if (problem) throw new Error(`SITE_URL=${JSON.stringify(value?.trim())} is invalid: ${problem}`);
  const trimmed = value?.trim();
  return trimmed ? new URL(trimmed).origin : undefined;
}
