import type { IncomingMessage, ServerResponse } from 'node:http';
import { TELEMETRY_ENDPOINT } from '@/shared/telemetry-events';
import { answerPlainText } from '@/server/serving/plain-text';

/** Everything on the public port is read-only, except the beacon endpoint. */
const READ_ONLY = ['GET', 'HEAD'];
const BEACONS = ['POST'];

const methodsOf = (pathname: string) => (pathname === TELEMETRY_ENDPOINT ? BEACONS : READ_ONLY);

/** The methods `pathname` answers, as an `Allow` header value. */
export function allowedMethods(pathname: string): string {
  return methodsOf(pathname).join(', ');
}

/**
 * Answers any method the target does not serve, before anything else sees the
 * request: TRACE made Next's proxy throw (a 500), and PUT or PROPFIND on a page
 * returned the page. OPTIONS gets 204 with `Allow`; the rest 405 with `Allow`
 * and a one-line body. Returns true when it answered.
 */
export function refuseMethod(req: IncomingMessage, res: ServerResponse, pathname: string): boolean {
  if (req.method !== undefined && methodsOf(pathname).includes(req.method)) return false;
  res.setHeader('Allow', allowedMethods(pathname));
  // A body we do not read is not worth draining: the connection closes after the answer.
  if (req.headers['transfer-encoding'] !== undefined || (req.headers['content-length'] ?? '0') !== '0') {
    res.setHeader('Connection', 'close');
  }
  if (req.method === 'OPTIONS') {
    res.statusCode = 204;
    res.setHeader('Cache-Control', 'no-store');
    res.end();
    return true;
  }
  answerPlainText(req, res, 405, 'Method Not Allowed');
  return true;
}
