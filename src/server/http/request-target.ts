/**
 * The path and query of a request target, as sent. Not `new URL()`: it would
 * read `//evil.example` as a host and normalise what the proxy must see raw.
 */
export function splitTarget(rawUrl: string | undefined): { pathname: string; search: URLSearchParams } {
  const target = rawUrl ?? '/';
  const queryStart = target.indexOf('?');
  const pathname = queryStart === -1 ? target : target.slice(0, queryStart);
  return {
    pathname: pathname.startsWith('/') ? pathname : `/${pathname}`,
    search: new URLSearchParams(queryStart === -1 ? '' : target.slice(queryStart + 1)),
  };
}
