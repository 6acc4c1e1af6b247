import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';

interface RouteEntry {
  page: string;
  regex: string;
}

interface RoutesManifest {
  staticRoutes: RouteEntry[];
  dynamicRoutes: RouteEntry[];
  rewrites: { beforeFiles: unknown[]; afterFiles: { regex: string }[]; fallback: unknown[] };
}

/** Next's own error routes: they match their literal paths, which no visitor's path reaches as a page. */
const ERROR_PAGES = new Set(['/_not-found', '/_global-error']);

export interface PageRoutes {
  /** Whether Next has a public file for the path, or a route or rewrite for its internal (locale) path. */
  isRouted(pathname: string, internalPathname: string): boolean;
}

function publicFiles(dir: string): Set<string> {
  const root = path.join(dir, 'public');
  const files = new Set<string>();
  if (!existsSync(root)) return files;
  for (const entry of readdirSync(root, { recursive: true, withFileTypes: true })) {
    if (entry.isFile()) files.add(`/${path.relative(root, path.join(entry.parentPath, entry.name)).split(path.sep).join('/')}`);
  }
  return files;
}

/**
 * The routes `next build` wrote in `.next/routes-manifest.json`, so the server
 * can tell that a path has no page without asking Next to render one. A build
 * with rewrites that run before routes (none today) is never second-guessed.
 */
export function loadPageRoutes(dir: string): PageRoutes {
  const manifest = JSON.parse(readFileSync(path.join(dir, '.next', 'routes-manifest.json'), 'utf8')) as RoutesManifest;
  const { rewrites } = manifest;
  if (rewrites.beforeFiles.length > 0 || rewrites.fallback.length > 0) return { isRouted: () => true };
  const patterns = [...manifest.staticRoutes, ...manifest.dynamicRoutes]
    .filter((route) => !ERROR_PAGES.has(route.page))
    .map((route) => route.regex)
    .concat(rewrites.afterFiles.map((rewrite) => rewrite.regex))
    .map((source) => new RegExp(source));
  const files = publicFiles(dir);
  return {
    isRouted: (pathname, internalPathname) => files.has(pathname) || patterns.some((pattern) => pattern.test(internalPathname)),
  };
}
