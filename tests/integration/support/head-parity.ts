/**
 * Headers that may differ between two answers to the same request: the date,
 * the request id, the nonce of a page Next renders, and the framing of the body
 * (a HEAD has none to frame).
 */
const VARYING = new Set(['date', 'x-request-id', 'transfer-encoding', 'connection', 'keep-alive']);

/** The headers of an answer as a HEAD must repeat them (RFC 9110 §9.3.2), names lower-cased. */
export function comparableHeaders(headers: Record<string, string | string[] | undefined>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined || VARYING.has(name.toLowerCase())) continue;
    kept[name.toLowerCase()] = String(value).replace(/'nonce-[^']+'/g, "'nonce'");
  }
  return kept;
}
