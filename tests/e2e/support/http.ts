import { request as httpRequest } from 'node:http';

export interface RawResponse {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/**
 * A request sent exactly as written (path, headers), which fetch and
 * Playwright's request context would normalise or refuse.
 */
export function rawGet(baseUrl: string, rawPath: string, headers: Record<string, string> = {}): Promise<RawResponse> {
  const { hostname, port } = new URL(baseUrl);
  return new Promise((resolve, reject) => {
    const req = httpRequest({ hostname, port, path: rawPath, method: 'GET', headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
    });
    req.setTimeout(10_000, () => req.destroy(new Error(`timeout on ${rawPath.slice(0, 80)}`)));
    req.on('error', reject);
    req.end();
  });
}

/** True when a Location header stays on the site that sent it. */
export function staysOnSite(location: string | undefined, baseUrl: string): boolean {
  if (!location) return true;
  if (/^[/\\]{2}/.test(location)) return false;
  return new URL(location, baseUrl).origin === new URL(baseUrl).origin;
}
