import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** Every response header but those that describe the body as the app server encoded it. */
function passedHeaders(headers: Headers): Record<string, string | string[]> {
  const passed: Record<string, string | string[]> = {};
  for (const [name, value] of headers) {
    if (['content-length', 'content-encoding', 'transfer-encoding', 'connection', 'keep-alive'].includes(name)) continue;
    if (name === 'set-cookie') continue;
    passed[name] = value;
  }
  const cookies = headers.getSetCookie();
  if (cookies.length) passed['set-cookie'] = cookies;
  return passed;
}

/**
 * The document cut before each start tag of its body's first `chars` characters (the
 * first screen), the rest in one piece: what a slow network delivers, at every place
 * it could stop.
 */
function documentPieces(html: string, chars: number): string[] {
  const bodyStart = html.indexOf('<body');
  if (bodyStart < 0) return [html];
  const end = Math.min(html.length, bodyStart + chars);
  const pieces = [html.slice(0, bodyStart)];
  let from = bodyStart;
  for (let at = html.indexOf('<', bodyStart + 1); at > 0 && at < end; at = html.indexOf('<', at + 1)) {
    if (html[at + 1] === '/' || html[at + 1] === '!') continue;
    pieces.push(html.slice(from, at));
    from = at;
  }
  pieces.push(html.slice(from));
  return pieces;
}

/**
 * A proxy on loopback in front of the app server at `target`: documents arrive in pieces
 * (documentPieces), `pauseMs` apart, so the browser paints the page half-parsed again and
 * again, as it does on a slow network when a packet ends anywhere in the HTML; everything
 * else passes through as it is.
 */
export async function startPiecewiseProxy(
  target: string,
  { firstScreenChars, pauseMs }: { firstScreenChars: number; pauseMs: number },
): Promise<{ url: string; close: () => Promise<void> }> {
  const forward = async (request: IncomingMessage, response: ServerResponse) => {
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(request.headers)) {
      if (typeof value === 'string' && name !== 'host' && name !== 'accept-encoding') headers[name] = value;
    }
    const upstream = await fetch(new URL(request.url ?? '/', target), { headers, redirect: 'manual' });
    response.writeHead(upstream.status, passedHeaders(upstream.headers));
    if (!(upstream.headers.get('content-type') ?? '').startsWith('text/html')) {
      response.end(Buffer.from(await upstream.arrayBuffer()));
      return;
    }
    for (const piece of documentPieces(await upstream.text(), firstScreenChars)) {
      response.write(piece);
      await new Promise((resolve) => setTimeout(resolve, pauseMs));
    }
    response.end();
  };
  const server = createServer((request, response) => {
    forward(request, response).catch((error: unknown) => {
      if (!response.headersSent) response.writeHead(502);
      response.end(String(error));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.closeAllConnections();
        server.close((error) => (error ? reject(error) : resolve()));
      }),
  };
}
