import type { IncomingMessage } from 'node:http';

/**
 * The visitor's address: the socket's, or with TRUST_PROXY the first entry of
 * X-Forwarded-For (set by the load balancer; anyone can send it otherwise).
 */
export function clientAddressOf(req: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const forwarded = req.headers['x-forwarded-for'];
    const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(',')[0]?.trim();
    if (first && first.length <= 64) return first;
  }
  return req.socket.remoteAddress ?? 'unknown';
}

/** http or https as the visitor sees it; X-Forwarded-Proto only with TRUST_PROXY. */
export function schemeOf(req: IncomingMessage, trustProxy: boolean): 'http' | 'https' {
  if (trustProxy && req.headers['x-forwarded-proto'] === 'https') return 'https';
  return 'encrypted' in req.socket && req.socket.encrypted ? 'https' : 'http';
}
