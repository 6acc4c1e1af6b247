import { localeProxy } from '@/i18n/proxy';

export const proxy = localeProxy;

export const config = {
  // The paths src/shared/site-paths.ts passes by (framework files, APIs, build
  // metadata, probes) and anything with a file extension never reach the locale
  // logic. Next reads this literal at build time, so it cannot import the list:
  // tests/unit/shared/contracts.test.ts holds the two to the same paths.
  matcher: ['/((?!_next/|api/|api$|builds/|builds$|healthz$|readyz$|.*\\.[A-Za-z0-9]+$).*)'],
};
