import type { IncomingMessage } from 'node:http';
import Negotiator from 'negotiator';

/** negotiator 1.x takes the server's preference for ties; @types/negotiator (0.6) predates it. */
type EncodingNegotiator = { encoding(available: string[], options: { preferred: string[] }): string | undefined };

export type ContentCoding = 'br' | 'gzip' | 'identity';

/**
 * Browsers send a handful of distinct Accept-Encoding values, so each is read
 * once per list of codings; odd values past the bound start the memo afresh,
 * and long ones are never kept.
 */
const MEMO_ENTRIES = 256;
const MEMO_HEADER_LENGTH = 256;
const NO_HEADER = '';
const memos = new WeakMap<readonly ContentCoding[], Map<string, ContentCoding | undefined>>();

/** `x-gzip` is gzip (RFC 9110 §8.4.1.3), which negotiator does not know. */
const X_GZIP = /(^|[\s,])x-gzip(?=\s*(?:[;,]|$))/gi;

function negotiate(req: IncomingMessage, available: readonly ContentCoding[]): ContentCoding | undefined {
  const header = req.headers['accept-encoding'];
  const normalized = header?.replace(X_GZIP, '$1gzip');
  const read = normalized !== header ? { headers: { 'accept-encoding': normalized } } : req;
  const negotiator = new Negotiator(read) as unknown as EncodingNegotiator;
  const coding = negotiator.encoding([...available], { preferred: [...available] });
  return available.find((candidate) => candidate === coding);
}

/**
 * The content coding to send, of those `available` in the server's order of
 * preference, as RFC 9110 §12.5.3 reads Accept-Encoding (q-values, `*`,
 * `identity;q=0`); undefined when the visitor accepts none of them. Pass the
 * same array each time: the answers are remembered per array.
 */
export function preferredCoding(req: IncomingMessage, available: readonly ContentCoding[]): ContentCoding | undefined {
  const header = req.headers['accept-encoding'] ?? NO_HEADER;
  if (header.length > MEMO_HEADER_LENGTH) return negotiate(req, available);
  let memo = memos.get(available);
  if (!memo) memos.set(available, (memo = new Map()));
  if (memo.has(header)) return memo.get(header);
  if (memo.size >= MEMO_ENTRIES) memo.clear();
  const coding = negotiate(req, available);
  memo.set(header, coding);
  return coding;
}
