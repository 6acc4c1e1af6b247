import { localeProxy } from '@/i18n/proxy';

export const proxy = localeProxy;

export const config = {
  // Framework files, APIs, build metadata, probes and anything with a file
  // extension never reach the locale logic (it re-checks, see isPassthroughPath).
  matcher: ['/((?!_next/|api/|builds/|healthz$|readyz$|.*\\.[A-Za-z0-9]+$).*)'],
};
