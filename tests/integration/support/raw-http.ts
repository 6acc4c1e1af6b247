import { connect } from 'node:net';

export interface RawReply {
  status: number;
  headers: Record<string, string>;
  /** What follows the head, as latin1 (chunked framing left as sent). */
  body: string;
  /** Milliseconds from connecting to the connection's close. */
  durationMs: number;
}

/**
 * Sends `bytes` (latin1: every byte as written, NUL and invalid UTF-8
 * included) on a new connection to 127.0.0.1:`port` and reads the answer's
 * head until the server closes. node:http would refuse most of what a fuzzer sends.
 */
export function rawRequest(port: number, bytes: string, timeoutMs = 10_000): Promise<RawReply> {
  const startedAt = performance.now();
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(bytes, 'latin1'));
    const chunks: Buffer[] = [];
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    socket.on('data', (chunk: Buffer) => chunks.push(chunk));
    socket.on('error', reject);
    socket.on('close', (hadError) => {
      if (hadError) return;
      const text = Buffer.concat(chunks).toString('latin1');
      const head = text.slice(0, text.indexOf('\r\n\r\n') === -1 ? text.length : text.indexOf('\r\n\r\n'));
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers: Record<string, string> = {};
      for (const line of lines) headers[line.slice(0, line.indexOf(':')).toLowerCase()] = line.slice(line.indexOf(':') + 1).trim();
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine)?.[1];
      if (!status) return reject(new Error(`no status line in ${JSON.stringify(text.slice(0, 200))}`));
      const bodyStart = text.indexOf('\r\n\r\n');
      resolve({
        status: Number(status),
        headers,
        body: bodyStart === -1 ? '' : text.slice(bodyStart + 4),
        durationMs: performance.now() - startedAt,
      });
    });
  });
}
