/** One namespace per feature, named after the folder under src/ui that owns it. */
export const NAMESPACES = [
  'common',
  'header',
  'navigation',
  'language-switcher',
  'mobile-menu',
  'footer',
  'carousel',
  'home',
  'loading',
  'not-found',
  'error',
] as const;

export type Namespace = (typeof NAMESPACES)[number];

export function isNamespace(value: unknown): value is Namespace {
  return typeof value === 'string' && (NAMESPACES as readonly string[]).includes(value);
}

/**
 * The namespaces Client Components read. Only these, in the active locale,
 * travel to the browser; everything else is translated on the server.
 */
export const CLIENT_NAMESPACES = ['language-switcher', 'mobile-menu', 'loading', 'error'] as const satisfies readonly Namespace[];

export type ClientNamespace = (typeof CLIENT_NAMESPACES)[number];
