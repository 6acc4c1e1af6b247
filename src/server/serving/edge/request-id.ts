import crypto from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** What we accept from a load balancer as a request id: short, printable, no spaces. */
/**
 * Taken before Next is loaded: Next wraps `crypto.randomUUID` to watch what its
 * renders read, a cost every request would otherwise pay.
 */
const newRequestId = crypto.randomUUID.bind(crypto);

const VALID_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export function requestIdOf(req: IncomingMessage): string {
  const offered = req.headers['x-request-id'];
  return typeof offered === 'string' && VALID_REQUEST_ID.test(offered) ? offered : newRequestId();
}
