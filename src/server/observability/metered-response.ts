import { ServerResponse, type IncomingMessage } from 'node:http';

function byteLengthOf(chunk: unknown): number {
  if (typeof chunk === 'string') return Buffer.byteLength(chunk);
  return chunk instanceof Uint8Array ? chunk.byteLength : 0;
}

/**
 * The public server's response class: counts the body bytes sent, for the
 * access log. A subclass rather than wrapping `write` and `end` on each
 * response, which cost two closures and two bound functions per request.
 */
export class MeteredResponse<Request extends IncomingMessage = IncomingMessage> extends ServerResponse<Request> {
  bodyBytes = 0;
  /**
   * Node drops the body of an answer to HEAD, whatever is written: decided when the
   * response is made, as here (Next is handed a HEAD as a GET, see serving/hand-over-to-next.ts).
   */
  private readonly sendsBody = this.req.method !== 'HEAD';

  override write(chunk: unknown, encodingOrCallback?: unknown, callback?: unknown): boolean {
    if (this.sendsBody) this.bodyBytes += byteLengthOf(chunk);
    return super.write(chunk, encodingOrCallback as BufferEncoding, callback as () => void);
  }

  override end(chunk?: unknown, encodingOrCallback?: unknown, callback?: unknown): this {
    if (this.sendsBody) this.bodyBytes += byteLengthOf(chunk);
    return super.end(chunk, encodingOrCallback as BufferEncoding, callback as () => void);
  }
}
