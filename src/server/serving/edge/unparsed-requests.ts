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
      // A method token Node's parser does not know (FOO, lowercase get) is one the server does not
      // implement (RFC 9110 §15.6.2); bytes that are no request line at all are a bad request.
      return requestLine.wellFormed ? { status: 501, reason: 'unknown_method' } : { status: 400, reason: 'malformed' };
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
  /** The first line is `method SP request-target SP HTTP-version` (RFC 9112 §3), whatever the method. */
  wellFormed: boolean;
}

/** The longest piece of a refused request kept: enough for a method and a logged path. */
const MAX_KEPT_BYTES = 1024;
/** A method token and the space after it. */
const REQUEST_LINE_START = /^[!-~]+ /;
/** RFC 9112 §3: a token (RFC 9110 §5.6.2), a target without spaces, a version. */
const REQUEST_LINE = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+ [!-~]+ HTTP\/\d\.\d\r?$/;

/**
 * What can be read of the refused request's first line in the bytes Node was
 * parsing (`rawPacket`, up to `bytesParsed` where it stopped): the request
 * starts after the last message that ended in that packet.
 */
function requestLineOf(error: { rawPacket?: unknown; bytesParsed?: number }): RequestLine {
  const packet = error.rawPacket;
  if (!Buffer.isBuffer(packet)) return { method: undefined, target: undefined, unfinished: false, wellFormed: false };
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
    wellFormed: REQUEST_LINE.test(text.split('\n', 1)[0] ?? ''),
  };
}

/** The `Allow` of a target as a refused request named it: POST on the beacon endpoint, GET and HEAD elsewhere. */
function allowOf(target: string | undefined): string {
  const pathname = originForm(target ?? '/').split('?', 1)[0] ?? '/';
  return allowedMethods(pathname.startsWith('/') ? pathname : '/');
}

type SocketWithMessage = Duplex & {
  _httpMessage?: {
    headersSent?: boolean;
    shouldKeepAlive?: boolean;
    writableFinished?: boolean;
    once?(event: 'finish' | 'close', listener: () => void): unknown;
  };
  parser?: { incoming?: { complete?: boolean } | null } | null;
  remoteAddress?: string;
};

/**
 * Requests that never reach the request listener, answered here as RFC 9110
 * asks and as every other answer is (`Date`, the security headers), each one
 * counted by reason and logged once: CONNECT (Node emits `connect`, and without
 * a listener drops the socket unanswered: 405 with the target's `Allow`), methods
 * its parser does not know (TRACK, made-up tokens, lowercase ones: 501), a head too
 * large (414 when the request line is what overflows, else 431), a head not
 * received within the headers timeout (408), and malformed messages (400). A bad
 * request behind a good one on the same connection gets its answer after the good
 * one's, then the connection closes.
 */
export function answerUnparsedRequests(server: Server, options: { metrics: Metrics; logger: Logger; securityHeaders: HeaderList }): void {
  const { metrics, logger, securityHeaders } = options;
  // A socket can report more than one error (a timeout, then its reset): only its first is a request.
  const answered = new WeakSet<Duplex>();

  const refuse = (
    socket: SocketWithMessage,
    refusal: Refusal,
    line: RequestLine,
    canAnswer: boolean,
    after?: SocketWithMessage['_httpMessage'],
  ) => {
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
    const answer = () =>
      writeRawAnswer(socket, {
        status: refusal.status,
        text: STATUS_CODES[refusal.status] ?? 'Bad Request',
        headers,
        isHead: line.method === 'HEAD',
      });
    if (!after?.once || after.writableFinished) return answer();
    // The answer to the request before it is still being written: this one follows it, unless
    // that one closes the connection (its client asked to).
    if (!after.shouldKeepAlive) return;
    after.once('finish', answer);
    after.once('close', () => socket.destroy());
  };

  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    refuse(socket, { status: 405, reason: 'connect' }, { method: 'CONNECT', target: req.url, unfinished: false, wellFormed: true }, true);
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
    refuse(socket, refusalOf(error.code, line), line, socket.writable, inUse);
  });
}
