import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import parseRange from 'range-parser';
import { answerPlainText } from '@/server/serving/plain-text';
import { contentTypeOf } from './static-assets';

function send(req: IncomingMessage, res: ServerResponse, status: number, bytes: Buffer): void {
  res.statusCode = status;
  res.setHeader('Content-Length', bytes.length);
  res.end(req.method === 'HEAD' ? undefined : bytes);
}

/**
 * A request for part of a build asset (RFC 9110 §14), answered from the file
 * as it is, never from its brotli copy. Next's own file server answered a
 * range past the end with a 500, so ranges never reach it. One satisfiable
 * range gets 206; none gets 416 naming the size; a malformed header, several
 * ranges or an If-Range we cannot check get the whole file (a server may
 * always ignore Range).
 */
export async function serveAssetRange(req: IncomingMessage, res: ServerResponse, file: string): Promise<void> {
  const content = await readFile(file);
  res.setHeader('Content-Type', contentTypeOf(file));
  res.setHeader('Accept-Ranges', 'bytes');
  res.setHeader('Vary', 'Accept-Encoding');
  const ranges = req.headers['if-range'] === undefined ? parseRange(content.length, String(req.headers.range), { combine: true }) : -2;
  if (ranges === -1) {
    res.setHeader('Content-Range', `bytes */${content.length}`);
    return answerPlainText(req, res, 416, 'Range Not Satisfiable');
  }
  const [range] = ranges === -2 || ranges.type !== 'bytes' || ranges.length !== 1 ? [] : ranges;
  if (!range) return send(req, res, 200, content);
  res.setHeader('Content-Range', `bytes ${range.start}-${range.end}/${content.length}`);
  send(req, res, 206, content.subarray(range.start, range.end + 1));
}
