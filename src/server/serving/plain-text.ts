import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Every short plain-text answer of the server (probes, refusals, misses):
 * one line of text, never cached unless told, with its length, and to a HEAD
 * the same headers without the body.
 */
export function answerPlainText(req: IncomingMessage, res: ServerResponse, status: number, text: string, cacheControl = 'no-store'): void {
  const body = `${text}\n`;
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/plain; charset=utf-8');
  res.setHeader('Cache-Control', cacheControl);
  res.setHeader('Content-Length', Buffer.byteLength(body));
  res.end(req.method === 'HEAD' ? undefined : body);
}
