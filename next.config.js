// @ts-check
import { buildRevision, resolveBuildId } from './src/build/build-identity.mjs';

/**
 * Test builds (MERIDIAN_E2E_FIXTURES=true) also route `*.e2e.tsx` pages: fixtures
 * that exercise the error boundary and never ship in a production build.
 */
const withE2eFixtures = process.env.MERIDIAN_E2E_FIXTURES === 'true';

/** BUILD_ID, else the commit: decided once here, for Next and for the page's own code. */
const buildId = resolveBuildId(process.env, buildRevision(process.env, import.meta.dirname));

/** @type {import('next').NextConfig} */
const nextConfig = {
  // The build id (BUILD_ID, else the commit): asset URLs carry it, and a router
  // payload from another build makes Next load the page in full.
  deploymentId: buildId,
  // The browser compares this with builds/latest.json (src/freshness).
  env: { NEXT_PUBLIC_BUILD_ID: buildId },
  poweredByHeader: false,
  // The site has no next/image: its optimiser (and the cache folder it would
  // write under a read-only root) stays off, so /_next/image is a plain 404.
  images: { unoptimized: true },
  // The build checks the app's types only; `npm test` checks tests and scripts too.
  typescript: { tsconfigPath: 'tsconfig.build.json' },
  reactStrictMode: true,
  output: 'standalone',
  // Keep the router's RSC and prefetch headers visible to the proxy: only
  // document requests may write the language cookie.
  skipProxyUrlNormalize: true,
  // The locale loader reads files by a computed path, which the tracer answers by
  // copying every JSON file of the project; the build copies locales/ itself.
  outputFileTracingExcludes: {
    '/*': ['./bench-results/**', './test-results/**', './test-reports/**', './locales/**', './package-lock.json', './tsconfig*.json'],
  },
  pageExtensions: withE2eFixtures ? ['tsx', 'ts', 'e2e.tsx'] : ['tsx', 'ts'],
  experimental: {
    // Unknown pages render src/app/global-not-found.tsx, server-side and whole.
    globalNotFound: true,
    // Stylesheets arrive inside the HTML as <style> (about 4 KiB compressed in all),
    // not as five render-blocking requests: the first paint waits on nothing but the
    // document. See docs/performance.md for the trace that showed the wait.
    inlineCss: true,
  },
  async headers() {
    // The root's answer depends on the language cookie and Accept-Language.
    return [{ source: '/', headers: [{ key: 'Vary', value: 'Cookie, Accept-Language' }] }];
  },
  async rewrites() {
    return {
      // A file that is not in public/ gets a plain 404, never an HTML page.
      afterFiles: [{ source: '/:path*/:file([^/]*\\.[A-Za-z0-9]+)', destination: '/api/missing-file' }],
    };
  },
};

export default nextConfig;
