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

/** Why a head cannot be served: its status and the text of the answer. */
export interface HeadRefusal {
  status: 400 | 501;
  text: string;
}

/**
 * The one transfer coding the server reads is chunked, once and last (RFC 9112
 * §6.1, §6.3): chunked elsewhere, twice or missing leaves the body's end unknown (a
 * 400). Another coding before a final chunked (`gzip, chunked`) frames the body all
 * right but is one the server does not implement: a 501 (RFC 9112 §6.1).
 */
function transferCodingRefusal(header: string): HeadRefusal | undefined {
  const codings = header.split(',').map((coding) => (coding.split(';', 1)[0] ?? '').trim().toLowerCase());
  const chunked = codings.filter((coding) => coding === 'chunked').length;
  if (chunked === 1 && codings.at(-1) === 'chunked') {
    if (codings.length === 1) return undefined;
    if (codings.every((coding) => coding !== '')) return { status: 501, text: 'Not Implemented: Transfer-Encoding other than chunked' };
  }
  return { status: 400, text: 'Bad Request: Transfer-Encoding must be chunked, once' };
}

/**
 * Why the head of a parsed request cannot be served, or undefined: exactly one valid
 * Host (HTTP/1.0 may send none), RFC 9112 §3.2; a Transfer-Encoding only in HTTP/1.1,
 * ending in chunked once, §6.1.
 */
export function malformedHeadOf(req: IncomingMessage): HeadRefusal | undefined {
  const transferEncoding = req.headers['transfer-encoding'];
  if (transferEncoding !== undefined) {
    if (req.httpVersion !== '1.1') return { status: 400, text: 'Bad Request: Transfer-Encoding must be chunked, once' };
    const refusal = transferCodingRefusal(transferEncoding);
    if (refusal) return refusal;
  }
  const hosts = hostFieldCount(req.rawHeaders);
  if (hosts === 0 ? req.httpVersion !== '1.0' : hosts > 1 || !isValidHost(req.headers.host ?? '')) {
    return { status: 400, text: 'Bad Request: exactly one valid Host header is required' };
  }
  return undefined;
}
