import { STATUS_CODES, type IncomingMessage, type Server } from 'node:http';
import type { Duplex } from 'node:stream';
import type { Logger } from 'pino';
import { logUnparsedRequest } from '@/server/observability/access-log';
import type { Metrics, UnparsedReason } from '@/server/observability/metrics';
import { countUnparsedRequest } from '@/server/observability/request-metrics';
import { methodLabel } from '@/server/observability/route-label';
import { allowedMethods } from './allowed-methods';
import { writeRawAnswer } from './raw-answer';
import { originForm } from './request-target';
import type { HeaderList } from './security-headers';

interface Refusal {
  status: number;
  reason: UnparsedReason;
}

/** What Node's parser reports, by its error code, as the answer RFC 9110 gives it. */
function refusalOf(code: string | undefined, requestLine: RequestLine): Refusal {
  switch (code) {
    case 'HPE_INVALID_METHOD':
      return { status: 405, reason: 'unknown_method' };
    case 'HPE_HEADER_OVERFLOW':
      // The limit counts the request line too: when it was crossed inside that line, the target is what is too long.
      return requestLine.unfinished ? { status: 414, reason: 'uri_too_long' } : { status: 431, reason: 'header_too_large' };
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return { status: 408, reason: 'timeout' };
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return { status: 413, reason: 'chunk_extensions_too_large' };
    case 'HPE_INVALID_TRANSFER_ENCODING':
    case 'HPE_UNEXPECTED_CONTENT_LENGTH':
    case 'HPE_INVALID_CONTENT_LENGTH':
    case 'HPE_INVALID_CHUNK_SIZE':
      return { status: 400, reason: 'bad_framing' };
    case 'HPE_INVALID_EOF_STATE':
      return { status: 400, reason: 'incomplete' };
    default:
      return { status: 400, reason: 'malformed' };
  }
}

interface RequestLine {
  method: string | undefined;
  target: string | undefined;
  /** The parser stopped before the request line ended. */
  unfinished: boolean;
}

/** The longest piece of a refused request kept: enough for a method and a logged path. */
const MAX_KEPT_BYTES = 1024;
/** A method token and the space after it. */
const REQUEST_LINE_START = /^[!-~]+ /;

/**
 * What can be read of the refused request's first line in the bytes Node was
 * parsing (`rawPacket`, up to `bytesParsed` where it stopped): the request
 * starts after the last message that ended in that packet.
 */
function requestLineOf(error: { rawPacket?: unknown; bytesParsed?: number }): RequestLine {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return { method: undefined, target: undefined, unfinished: false };
  const stop = Math.min(error.bytesParsed ?? packet.length, packet.length);
  const previousEnd = packet.lastIndexOf('\r\n\r\n', Math.max(0, stop - 1), 'latin1');
  const start = previousEnd === -1 ? 0 : previousEnd + 4;
  const text = packet.toString('latin1', start, Math.min(packet.length, start + MAX_KEPT_BYTES));
  const lineEnd = packet.indexOf('\n', start, 'latin1');
  const [method, target] = text.split(/[ \r\n]/, 2);
  return {
    method: method || undefined,
    target: target || undefined,
    unfinished: (lineEnd === -1 || lineEnd >= stop) && REQUEST_LINE_START.test(text),
  };
}

/** The `Allow` of a target as a refused request named it: POST on the beacon endpoint, GET and HEAD elsewhere. */
function allowOf(target: string | undefined): string {
  const pathname = originForm(target ?? '/').split('?', 1)[0] ?? '/';
  return allowedMethods(pathname.startsWith('/') ? pathname : '/');
}

type SocketWithMessage = Duplex & {
  _httpMessage?: { headersSent?: boolean; shouldKeepAlive?: boolean };
  parser?: { incoming?: { complete?: boolean } | null } | null;
  remoteAddress?: string;
};

/**
 * Requests that never reach the request listener, answered here as RFC 9110
 * asks and as every other answer is (`Date`, the security headers), each one
 * counted by reason and logged once: CONNECT (Node emits `connect`, and without
 * a listener drops the socket unanswered), methods its parser does not know
 * (TRACK, made-up tokens: 405 with the target's `Allow`), a head too large (414
 * when the request line is what overflows, else 431), a head not received within
 * the headers timeout (408), and malformed messages (400).
 */
export function answerUnparsedRequests(server: Server, options: { metrics: Metrics; logger: Logger; securityHeaders: HeaderList }): void {
  const { metrics, logger, securityHeaders } = options;
  // A socket can report more than one error (a timeout, then its reset): only its first is a request.
  const answered = new WeakSet<Duplex>();

  const refuse = (socket: SocketWithMessage, refusal: Refusal, line: RequestLine, canAnswer: boolean) => {
    if (answered.has(socket)) return void socket.destroy();
    answered.add(socket);
    const method = methodLabel(line.method);
    countUnparsedRequest(metrics, method, refusal.reason, refusal.status);
    logUnparsedRequest(logger, {
      method,
      status: refusal.status,
      reason: refusal.reason,
      path: line.target,
      remote_address: socket.remoteAddress ?? 'unknown',
    });
    if (!canAnswer) return void socket.destroy();
    const headers = refusal.status === 405 ? [...securityHeaders, 'Allow', allowOf(line.target)] : securityHeaders;
    writeRawAnswer(socket, {
      status: refusal.status,
      text: STATUS_CODES[refusal.status] ?? 'Bad Request',
      headers,
      isHead: line.method === 'HEAD',
    });
  };

  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    refuse(socket, { status: 405, reason: 'connect' }, { method: 'CONNECT', target: req.url, unfinished: false }, true);
  });

  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: unknown; bytesParsed?: number }, socket: SocketWithMessage) => {
    // A reset or a failed write is the connection's end, not a request.
    if (!error.code?.startsWith('HPE_') && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') return void socket.destroy();
    const inUse = socket._httpMessage;
    const incoming = socket.parser?.incoming;
    if (incoming && !incoming.complete && error.code !== 'ERR_HTTP_REQUEST_TIMEOUT') {
      // The body of a request the pipeline has (and counts, and answers) cannot be read:
      // its answer stands, and the connection ends with it.
      if (inUse && !inUse.headersSent) inUse.shouldKeepAlive = false;
      else if (!inUse) socket.end();
      return;
    }
    const line = requestLineOf(error);
    refuse(socket, refusalOf(error.code, line), line, socket.writable && !inUse?.headersSent);
  });
}
