import { Agent, request, type IncomingMessage, type OutgoingHttpHeaders, type ServerResponse } from 'node:http';

/** Headers of one hop only (RFC 9110 §7.6.1): never passed between the serving process and the renderer. */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'transfer-encoding', 'upgrade', 'te', 'trailer']);

/** Kept-alive connections to the renderer, as many as renders may run at once. */
export function rendererAgent(concurrency: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: concurrency, maxFreeSockets: concurrency, keepAliveMsecs: 1000 });
}

/** The outcome: `sent` once the renderer's answer is over (sent, or the visitor left); `unreachable` when nothing was sent. */
export type ProxyOutcome = 'sent' | 'unreachable';

/**
 * Sends `req` to the renderer on `port` and its answer back on `res`: status and headers
 * added to those the serving process set (the root's Vary merge included, see
 * serving/negotiation/vary.ts), the body streamed. A renderer that fails before its head
 * arrives leaves `res` untouched (`unreachable`), so the caller can still answer; after it,
 * the visitor's connection is cut, as a failed render would cut it.
 */
export function proxyToRenderer(req: IncomingMessage, res: ServerResponse, port: number, agent: Agent): Promise<ProxyOutcome> {
  const headers: OutgoingHttpHeaders = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (!HOP_BY_HOP.has(name) && value !== undefined) headers[name] = value;
  }
  return new Promise((resolve) => {
    const upstream = request({ host: '127.0.0.1', port, method: req.method, path: req.url, headers, agent }, (answer) => {
      res.statusCode = answer.statusCode ?? 502;
      const raw = answer.rawHeaders;
      const seen = new Set<string>();
      for (let i = 0; i < raw.length; i += 2) {
        const name = raw[i]!.toLowerCase();
        if (HOP_BY_HOP.has(name)) continue;
        const value = raw[i + 1]!;
        if (!seen.has(name)) {
          seen.add(name);
          res.setHeader(raw[i]!, name === 'set-cookie' ? [value] : value);
        } else {
          const current = res.getHeader(name);
          res.setHeader(name, Array.isArray(current) ? [...current, value] : `${String(current)}, ${value}`);
        }
      }
      // Next's redirects (the root's 307 by language) carry a body but do not say what it is.
      if (res.statusCode >= 300 && res.statusCode < 400 && !res.hasHeader('content-type')) {
        res.setHeader('Content-Type', 'text/plain; charset=utf-8');
      }
      res.writeHead(res.statusCode);
      answer.pipe(res);
      answer.once('error', () => res.destroy());
      answer.once('aborted', () => res.destroy());
    });
    upstream.once('error', () => {
      if (!res.headersSent) resolve('unreachable');
      else res.destroy();
    });
    // The render's slot is held until the visitor has the whole answer or is gone.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
      resolve('sent');
    });
    req.pipe(upstream);
  });
}
