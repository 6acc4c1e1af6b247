// @ts-check

/**
 * Test builds (MERIDIAN_E2E_FIXTURES=true) also route `*.e2e.tsx` pages: fixtures
 * that exercise the error boundary and never ship in a production build.
 */
const withE2eFixtures = process.env.MERIDIAN_E2E_FIXTURES === 'true';

/** @type {import('next').NextConfig} */
const nextConfig = {
  poweredByHeader: false,
  reactStrictMode: true,
  pageExtensions: withE2eFixtures ? ['tsx', 'ts', 'e2e.tsx'] : ['tsx', 'ts'],
  experimental: {
    // Unknown pages render src/app/global-not-found.tsx, server-side and whole.
    globalNotFound: true,
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

module.exports = nextConfig;
