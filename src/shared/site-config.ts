/**
 * The site's identity, read from the environment when the pages are built
 * (they are prerendered, so changing these needs a new build). The only module
 * of the site that reads `process.env`.
 */
export interface SiteConfig {
  /** The code name shown as page title and in the header. */
  name: string;
  description: string;
  keywords: string[];
  /** Absolute origin for canonical and alternate links; relative links when unset. */
  url: string | undefined;
}

function parseUrl(value: string | undefined): string | undefined {
  if (!value) return undefined;
  let parsed: URL;
  try {
    parsed = new URL(value);
  } catch {
    throw new Error(`SITE_URL must be an absolute http(s) URL such as https://example.com, got "${value}"`);
  }
  if (parsed.protocol !== 'https:' && parsed.protocol !== 'http:') {
    throw new Error(`SITE_URL must use http or https, got "${value}"`);
  }
  return parsed.origin;
}

function readSiteConfig(env: Record<string, string | undefined>): SiteConfig {
  return Object.freeze({
    name: env.SITE_NAME?.trim() || 'Meridian',
    description: env.SITE_DESCRIPTION?.trim() ?? '',
    keywords: (env.SITE_KEYWORDS ?? '')
      .split(',')
      .map((keyword) => keyword.trim())
      .filter(Boolean),
    url: parseUrl(env.SITE_URL?.trim()),
  });
}

export const siteConfig: SiteConfig = readSiteConfig({
  SITE_NAME: process.env.SITE_NAME,
  SITE_DESCRIPTION: process.env.SITE_DESCRIPTION,
  SITE_KEYWORDS: process.env.SITE_KEYWORDS,
  SITE_URL: process.env.SITE_URL,
});
