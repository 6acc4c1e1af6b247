import { request as httpRequest, type IncomingMessage } from 'node:http';
import { request as httpsRequest } from 'node:https';

/**
 * The code of the error when `timeoutMs` passed before the connection opened: nothing was
 * sent, so the other side cannot have acted on the request (an address nobody holds any
 * more times out like this where no host refuses it).
 */
export const NEVER_CONNECTED = 'ERR_NEVER_CONNECTED';

/**
 * Asks a Kubernetes Service (or a pod) on a connection of its own, and resolves with the answer's head.
 * kube-proxy picks a pod per connection, and leaves open connections where they are when Argo
 * Rollouts moves the Service's selector to another ReplicaSet: over a kept-alive connection a
 * pod would go on asking a pod of the build the Service selected before. On the cluster, the
 * stable pods then never heard of the canary, and asked one another for the canary's files.
 * `timeoutMs` bounds the wait for the answer's head; `signal` (optional) the whole exchange.
 */
export function askService(
  url: URL,
  options: { method?: 'GET' | 'HEAD' | 'POST'; headers?: Record<string, string>; body?: Buffer; timeoutMs: number; signal?: AbortSignal },
): Promise<IncomingMessage> {
  const send = url.protocol === 'https:' ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    // No agent: a new connection, closed after this one exchange.
    const request = send(
      url,
      { method: options.method ?? 'GET', headers: options.headers, agent: false, signal: options.signal },
      (answer) => {
        clearTimeout(timer);
        resolve(answer);
      },
    );
    let connected = false;
    request.once('socket', (socket) => {
      if (socket.connecting) socket.once('connect', () => (connected = true));
      else connected = true;
    });
    const timer = setTimeout(() => {
      const error = new Error(connected ? `no answer within ${options.timeoutMs} ms` : `no connection within ${options.timeoutMs} ms`);
      request.destroy(connected ? error : Object.assign(error, { code: NEVER_CONNECTED }));
    }, options.timeoutMs);
    request.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    request.end(options.body);
  });
}
