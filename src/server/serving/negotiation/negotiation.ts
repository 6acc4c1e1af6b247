import type { IncomingMessage } from 'node:http';
import fresh from 'fresh';
import Negotiator from 'negotiator';

/** negotiator 1.x takes the server's preference for ties; @types/negotiator (0.6) predates it. */
type EncodingNegotiator = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * The content coding to send, of those `available` in the server's order of
 * preference, as RFC 9110 §12.5.3 reads Accept-Encoding (q-values, `*`,
 * `identity;q=0`); undefined when the visitor accepts none of them.
 */
export function preferredCoding(req: IncomingMessage, available: readonly ContentCoding[]): ContentCoding | undefined {
  const negotiator = new Negotiator(req) as unknown as EncodingNegotiator;
  const coding = negotiator.encoding([...available], { preferred: [...available] });
  return available.find((candidate) => candidate === coding);
}

/**
 * Whether the visitor's cached copy is still good, by RFC 9110 §13.1:
 * If-None-Match (a list, `*`, weak comparison) and, only without it,
 * If-Modified-Since.
 */
export function isFresh(req: IncomingMessage, validators: { etag: string; lastModified: string }): boolean {
  return fresh(req.headers, { etag: validators.etag, 'last-modified': validators.lastModified });
}
