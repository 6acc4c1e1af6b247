import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '@/server/config';

/** Whether the peer at `hop` (0: the socket, 1: the right-most X-Forwarded-For entry...) may speak for the client. */
export type ProxyTrust = (address: string, hop: number) => boolean;

/** No proxy is believed: the socket's peer is the client (TRUST_PROXY's default). */
const TRUST_NOBODY: ProxyTrust = () => false;

/** TRUST_PROXY as a function, as Express compiles its "trust proxy" setting. */
export function compileTrust(setting: TrustProxy): ProxyTrust {
  if (setting === false || setting === 0) return TRUST_NOBODY;
  if (typeof setting === 'number') return (_address, hop) => hop < setting;
  return proxyaddr.compile([...setting]);
}

function socketAddressOf(req: IncomingMessage): string {
  return req.socket.remoteAddress ?? 'unknown';
}

/**
 * The visitor's address: walking X-Forwarded-For from the right (each proxy
 * appends the address it was reached from), the first address not trusted.
 * The left of the header is whatever the visitor wrote, so it is never read
 * past an untrusted hop. A trusted hop that wrote something other than an
 * address leaves the socket's.
 */
export function clientAddressOf(req: IncomingMessage, trust: ProxyTrust): string {
  if (trust === TRUST_NOBODY) return socketAddressOf(req);
  const address = proxyaddr(req, trust);
  return address && isIP(address) ? address : socketAddressOf(req);
}

/** Whether the peer on the socket is a proxy we believe. */
export function peerIsTrusted(req: IncomingMessage, trust: ProxyTrust): boolean {
  const address = req.socket.remoteAddress;
  return address !== undefined && trust(address, 0);
}

function firstValue(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  return value?.split(',')[0]?.trim().toLowerCase();
}

/** http or https as the visitor sees it; X-Forwarded-Proto only from a trusted peer. */
export function schemeOf(req: IncomingMessage, trust: ProxyTrust): 'http' | 'https' {
  if ('encrypted' in req.socket && req.socket.encrypted) return 'https';
  return peerIsTrusted(req, trust) && firstValue(req.headers['x-forwarded-proto']) === 'https' ? 'https' : 'http';
}

/** The headers by which a proxy describes the original request. */
const FORWARDING_HEADERS = ['forwarded', 'x-forwarded-for', 'x-forwarded-host', 'x-forwarded-proto', 'x-forwarded-port'];

/**
 * Removes the forwarding headers of a request from a peer we do not trust,
 * before Next reads them (its proxy sets a Secure cookie from
 * X-Forwarded-Proto, and Next builds URLs from X-Forwarded-Host).
 */
export function dropUntrustedForwarding(req: IncomingMessage, trust: ProxyTrust): void {
  if (peerIsTrusted(req, trust)) return;
  for (const name of FORWARDING_HEADERS) delete req.headers[name];
}
