import type { IncomingMessage } from 'node:http';
import { isIPv6 } from 'node:net';

/** RFC 3986 §3.2.2 reg-name (an IPv4 address is one too), then an optional port: no space, `/`, `@`, `<` or raw UTF-8. */
const NAME_AND_PORT = /^(?:[A-Za-z0-9\-._~!$&'()*+,;=]|%[0-9A-Fa-f]{2})*(?::\d*)?$/;
/** RFC 3986 IP-literal: an IPv6 address (checked by Node below) or an IPvFuture, then an optional port. */
const IP_LITERAL_AND_PORT = /^\[(v[0-9A-Fa-f]+\.[A-Za-z0-9\-._~!$&'()*+,;=:]+|[0-9A-Fa-f:.]+)\](?::\d*)?$/;

/** Whether a Host value is `uri-host [ ":" port ]` (RFC 9110 §7.2). Punycode is a reg-name; an empty value is allowed. */
export function isValidHost(value: string): boolean {
  if (!value.startsWith('[')) return NAME_AND_PORT.test(value);
  const literal = IP_LITERAL_AND_PORT.exec(value)?.[1];
  return literal !== undefined && (literal.startsWith('v') || isIPv6(literal));
}

/** How many Host fields the request carried: Node keeps only the first in `headers`. */
function hostFieldCount(rawHeaders: readonly string[]): number {
  let count = 0;
  for (let index = 0; index < rawHeaders.length; index += 2) {
    const name = rawHeaders[index] as string;
    if (name.length === 4 && (name === 'Host' || name === 'host' || name.toLowerCase() === 'host')) count += 1;
  }
  return count;
}

/**
 * The one transfer coding the server reads is chunked, once and last (RFC 9112
 * §6.1, §6.3): anything else leaves the body's length unknown. A coding it does
 * not know would deserve a 501, but bad input gets a 4xx here.
 */
function isChunkedOnly(header: string): boolean {
  const codings = header.split(',').map((coding) => (coding.split(';', 1)[0] ?? '').trim().toLowerCase());
  return codings.length === 1 && codings[0] === 'chunked';
}

/**
 * Why the head of a parsed request cannot be served (the text of its 400), or
 * undefined: exactly one valid Host (HTTP/1.0 may send none), RFC 9112 §3.2; a
 * Transfer-Encoding only of chunked, and only in HTTP/1.1, §6.1.
 */
export function malformedHeadOf(req: IncomingMessage): string | undefined {
  const transferEncoding = req.headers['transfer-encoding'];
  if (transferEncoding !== undefined && (req.httpVersion !== '1.1' || !isChunkedOnly(transferEncoding))) {
    return 'Bad Request: Transfer-Encoding must be chunked, once';
  }
  const hosts = hostFieldCount(req.rawHeaders);
  if (hosts === 0 ? req.httpVersion !== '1.0' : hosts > 1 || !isValidHost(req.headers.host ?? '')) {
    return 'Bad Request: exactly one valid Host header is required';
  }
  return undefined;
}
