import type { IncomingMessage, ServerResponse } from 'node:http';
import parseRange from 'range-parser';
import { setHeaderList } from '@/server/serving/edge/security-headers';
import { preferredCoding } from '@/server/serving/negotiation/negotiation';
import { evaluatePreconditions } from '@/server/serving/negotiation/preconditions';
import { answerPlainText } from '@/server/serving/plain-text';
import type { Representation, ServedFile } from './served-file';

const IDENTITY_ONLY = ['identity'] as const;

type RangeAnswer = { start: number; end: number } | 'whole' | 'unsatisfiable';

/**
 * Which part of the file a GET asks for (RFC 9110 §14): ranges are served from
 * the file as it is (identity), so only to a client that accepts it. One
 * satisfiable range is a part; none is unsatisfiable; a malformed header,
 * several ranges, another unit or an If-Range that no longer matches get the
 * whole file (a server may always ignore Range). HEAD ignores Range
 * (§14.2: range handling is defined for GET only).
 */
function rangeOf(req: IncomingMessage, file: ServedFile): RangeAnswer {
  const header = req.headers.range;
  if (header === undefined || req.method !== 'GET' || !preferredCoding(req, IDENTITY_ONLY)) return 'whole';
  const ifRange = req.headers['if-range'];
  if (ifRange !== undefined && ifRange !== file.representations.identity.etag && ifRange !== file.lastModified) return 'whole';
  const ranges = parseRange(file.representations.identity.body.length, header, { combine: true });
  if (ranges === -1) return 'unsatisfiable';
  if (ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1) return 'whole';
  const [range] = ranges;
  return range ? { start: range.start, end: range.end } : 'whole';
}

/** What every answer about the file says of it, a 304 included (RFC 9110 §15.4.5). */
function writeValidators(res: ServerResponse, file: ServedFile, representation: Representation): void {
  res.setHeader('Cache-Control', file.cacheControl);
  res.setHeader('ETag', representation.etag);
  res.setHeader('Last-Modified', file.lastModified);
  if (file.codings.length > 1) res.setHeader('Vary', 'Accept-Encoding');
  res.setHeader('Accept-Ranges', 'bytes');
  setHeaderList(res, file.headers);
}

/**
 * Answers GET or HEAD of a file from memory: the smallest coding the visitor
 * accepts (identity when it accepts none: a file is never refused), its
 * preconditions evaluated against the selected coding (412 when If-Match or
 * If-Unmodified-Since is false, 304 when their copy is still good), a part of it
 * for a Range, and to a HEAD the same headers without the body.
 */
export function serveFile(req: IncomingMessage, res: ServerResponse, file: ServedFile): void {
  const coding = preferredCoding(req, file.codings) ?? 'identity';
  const selected = file.representations[coding] ?? file.representations.identity;
  const precondition = evaluatePreconditions(req, { etag: selected.etag, lastModified: file.lastModified });
  if (precondition === 'failed') return answerPlainText(req, res, 412, 'Precondition Failed');
  if (precondition === 'not-modified') {
    writeValidators(res, file, selected);
    res.statusCode = 304;
    res.end();
    return;
  }
  const range = rangeOf(req, file);
  const identity = file.representations.identity;
  if (range === 'unsatisfiable') {
    res.setHeader('Content-Range', `bytes */${identity.body.length}`);
    return answerPlainText(req, res, 416, 'Range Not Satisfiable');
  }
  const representation = range === 'whole' ? selected : identity;
  writeValidators(res, file, representation);
  res.setHeader('Content-Type', file.contentType);
  let body = representation.body;
  if (range === 'whole') {
    res.statusCode = 200;
    if (representation !== identity) res.setHeader('Content-Encoding', coding);
  } else {
    res.statusCode = 206;
    res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${identity.body.length}`);
    body = identity.body.subarray(range.start, range.end + 1);
  }
  res.setHeader('Content-Length', body.length);
  res.end(req.method === 'HEAD' ? undefined : body);
}
