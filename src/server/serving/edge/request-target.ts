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
