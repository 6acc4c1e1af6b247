import { BUILT_SITE_ORIGIN, siteOrigin } from './site-origin.mjs';

/**
 * The site's identity, read from the environment: its name and words when the pages are
 * built (they are prerendered, so changing these needs a new build), its origin where it
 * runs. The only module of the site that reads `process.env`.
 */
export interface SiteConfig {
  /** The code name shown as page title and in the header. */
  name: string;
  description: string;
  keywords: string[];
  /**
   * Absolute origin for canonical and alternate links; relative links when unset. While
   * `next build` prerenders, a placeholder the server swaps for SITE_URL's at start.
   */
  url: string | undefined;
}

function readSiteConfig(env: Record<string, string | undefined>): SiteConfig {
  return Object.freeze({
    name: env.SITE_NAME?.trim() || 'Meridian',
    description: env.SITE_DESCRIPTION?.trim() ?? '',
    keywords: (env.SITE_KEYWORDS ?? '')
      .split(',')
      .map((keyword) => keyword.trim())
      .filter(Boolean),
    url: env.NEXT_PHASE === 'phase-production-build' ? BUILT_SITE_ORIGIN : siteOrigin(env.SITE_URL),
  });
}

export const siteConfig: SiteConfig = readSiteConfig({
  SITE_NAME: process.env.SITE_NAME,
  SITE_DESCRIPTION: process.env.SITE_DESCRIPTION,
  SITE_KEYWORDS: process.env.SITE_KEYWORDS,
  SITE_URL: process.env.SITE_URL,
  NEXT_PHASE: process.env.NEXT_PHASE,
});
