import type { IncomingMessage } from 'node:http';

export type BodyResult = { kind: 'ok'; body: Buffer } | { kind: 'too_large' } | { kind: 'timeout' } | { kind: 'aborted' };

/**
 * Reads the body, holding at most the limit plus one chunk. Once it gives up,
 * the rest is left unread (the stream keeps flowing into nothing) and the
 * connection closes after the answer.
 */
export function readBody(req: IncomingMessage, timeoutMs: number, maxBytes: number): Promise<BodyResult> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const settle = (result: BodyResult) => {
      clearTimeout(timer);
      req.off('data', onData).off('end', onEnd).off('error', onAborted).off('close', onAborted);
      resolve(result);
    };
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > maxBytes) settle({ kind: 'too_large' });
      else chunks.push(chunk);
    };
    const onEnd = () => settle({ kind: 'ok', body: Buffer.concat(chunks, size) });
    const onAborted = () => settle({ kind: 'aborted' });
    const timer = setTimeout(() => settle({ kind: 'timeout' }), timeoutMs);
    req.on('data', onData).on('end', onEnd).on('error', onAborted).on('close', onAborted);
  });
}

/** Whether the request announced a body; one we answer without reading is not worth draining. */
export function hasBody(req: IncomingMessage): boolean {
  const length = req.headers['content-length'];
  return req.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0');
}

export function mediaTypeOf(req: IncomingMessage): string {
  const [type = ''] = (req.headers['content-type'] ?? '').split(';');
  return type.trim().toLowerCase();
}
