import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { logUnparsedRefusal } from '@/server/observability/access-log';
import type { Metrics } from '@/server/observability/metrics';
import { countUnparsedRefusal } from '@/server/observability/request-metrics';
import { writeRawMethodNotAllowed } from './allowed-methods';

/** What Node's own clientError handler answers (lib/_http_server.js), which a listener replaces. */
function statusOfParseError(code: string | undefined): 400 | 408 | 413 | 431 {
  if (code === 'HPE_HEADER_OVERFLOW') return 431;
  if (code === 'HPE_CHUNK_EXTENSIONS_OVERFLOW') return 413;
  if (code === 'ERR_HTTP_REQUEST_TIMEOUT') return 408;
  return 400;
}

const REASONS = { 400: 'Bad Request', 408: 'Request Timeout', 413: 'Payload Too Large', 431: 'Request Header Fields Too Large' };

/**
 * Requests that never reach the request listener: CONNECT (Node emits
 * `connect`, and without a listener drops the socket unanswered) and methods
 * its parser does not know (TRACK, made-up tokens: a parse error, which Node
 * answers 400). Both get the same 405 as TRACE, and are counted with the
 * bounded labels `CONNECT`/`other`; other parse errors keep Node's answers.
 */
export function answerUnparsedRequests(server: Server, { metrics, logger }: { metrics: Metrics; logger: Logger }): void {
  const refused = (method: 'CONNECT' | 'other', socket: Duplex) => {
    countUnparsedRefusal(metrics, method);
    logUnparsedRefusal(logger, method, remoteAddressOf(socket));
    writeRawMethodNotAllowed(socket);
  };

  server.on('connect', (_req: IncomingMessage, socket: Duplex) => refused('CONNECT', socket));

  server.on('clientError', (error: NodeJS.ErrnoException, socket: Duplex) => {
    const inUse = (socket as Duplex & { _httpMessage?: { headersSent?: boolean } })._httpMessage;
    if (error.code === 'ECONNRESET' || !socket.writable || inUse?.headersSent) return void socket.destroy();
    if (error.code === 'HPE_INVALID_METHOD' && !inUse) return refused('other', socket);
    const status = statusOfParseError(error.code);
    socket.end(`HTTP/1.1 ${status} ${REASONS[status]}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  });
}

function remoteAddressOf(socket: Duplex): string {
  return (socket as Duplex & { remoteAddress?: string }).remoteAddress ?? 'unknown';
}
