/**
 * The path and query of a request target, as sent. Not `new URL()`: it would
 * read `//evil.example` as a host and normalise what the proxy must see raw.
 */
export interface RequestTarget {
  pathname: string;
  /** After the `?`, as sent; empty without one. */
  query: string;
}

export function splitTarget(rawUrl: string | undefined): RequestTarget {
  const target = rawUrl ?? '/';
  const queryStart = target.indexOf('?');
  const pathname = queryStart === -1 ? target : target.slice(0, queryStart);
  return {
    pathname: pathname.startsWith('/') ? pathname : `/${pathname}`,
    query: queryStart === -1 ? '' : target.slice(queryStart + 1),
  };
}

/** `http://host/path?query`: the absolute form a client may send (RFC 9112 §3.2.2), proxies above all. */
const ABSOLUTE_FORM = /^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/;

/**
 * The request target in origin form: an absolute-form target loses its scheme
 * and authority. We serve one site whatever authority is named, and Next,
 * handed `http://evil.example/`, redirected the visitor there.
 */
export function originForm(rawUrl: string | undefined): string {
  const target = rawUrl ?? '/';
  if (target.startsWith('/')) return target;
  const authority = ABSOLUTE_FORM.exec(target);
  if (!authority) return target;
  const rest = target.slice(authority[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}
