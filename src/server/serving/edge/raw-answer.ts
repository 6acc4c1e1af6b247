import { STATUS_CODES } from 'node:http';
import type { Duplex } from 'node:stream';
import type { HeaderList } from '@/server/serving/header-list';

/**
 * A plain-text answer written straight to a socket, for a request Node could
 * not hand to the pipeline (src/server/serving/plain-text.ts writes the
 * others): the same headers as those, `Date` and the security headers
 * included, then the connection closes. To a HEAD, the headers alone.
 */
export function writeRawAnswer(socket: Duplex, answer: { status: number; text: string; headers: HeaderList; isHead: boolean }): void {
  // Node hands a CONNECT socket over with no error listener of its own: a reset from the
  // peer would otherwise be an uncaught error, and the end of the process.
  socket.on('error', () => socket.destroy());
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const body = `${answer.text}\n`;
  let head = `HTTP/1.1 ${answer.status} ${STATUS_CODES[answer.status] ?? 'Error'}\r\nDate: ${new Date().toUTCString()}\r\n`;
  for (let index = 0; index < answer.headers.length; index += 2) head += `${answer.headers[index]}: ${answer.headers[index + 1]}\r\n`;
  head +=
    'Content-Type: text/plain; charset=utf-8\r\n' +
    'Cache-Control: no-store\r\n' +
    `Content-Length: ${Buffer.byteLength(body)}\r\n` +
    'Connection: close\r\n\r\n';
  socket.end(answer.isHead ? head : head + body, 'latin1');
}
