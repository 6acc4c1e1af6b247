import { Agent, createServer as createHttpServer, request as httpRequest } from 'node:http';
import { createServer, connect, type Socket } from 'node:net';
import { freePort } from '../../tools/lib/ports.mjs';

export interface SwitchableService {
  url: string;
  /**
   * Sends new connections to this port from now on, as a Service whose selector changed. Open
   * connections stay with the port they reached, as kube-proxy leaves them with their pod.
   */
  pointAt(port: number): void;
  close(): Promise<void>;
}

/**
 * A stand-in for a Kubernetes Service whose selector Argo Rollouts moves between
 * ReplicaSets (stableService, canaryService): a TCP forwarder on loopback whose
 * target port the test switches.
 */
export async function switchableService(initialPort: number): Promise<SwitchableService> {
  let target = initialPort;
  const open = new Set<Socket>();
  const server = createServer((client) => {
    const upstream = connect(target, '127.0.0.1');
    for (const socket of [client, upstream]) {
      open.add(socket);
      socket.on('close', () => open.delete(socket));
      socket.on('error', () => {
        client.destroy();
        upstream.destroy();
      });
    }
    client.pipe(upstream).pipe(client);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    pointAt(next) {
      target = next;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/**
 * The release's own Service in front of the pods of both builds: each HTTP request (not
 * each connection, which a browser keeps) goes to one of the ports at random, as kube-proxy
 * spreads connections and a browser opens many (in turn, a tab polling in step with another
 * would always meet the same pod). `only` narrows the ports, as pods go.
 */
export async function randomSpread(ports: number[]): Promise<{ url: string; only(next: number[]): void; close(): Promise<void> }> {
  let targets = [...ports];
  const agent = new Agent({ keepAlive: true });
  const server = createHttpServer((req, res) => {
    const port = targets[Math.floor(Math.random() * targets.length)];
    const upstream = httpRequest({ host: '127.0.0.1', port, path: req.url, method: req.method, headers: req.headers, agent }, (answer) => {
      // Which pod answered, for the tests to see both builds answer the same tab.
      res.writeHead(answer.statusCode ?? 502, { ...answer.headers, 'x-served-by': String(port) });
      answer.pipe(res);
    });
    upstream.on('error', () => res.destroy());
    req.pipe(upstream);
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${port}`,
    only(next) {
      targets = [...next];
    },
    close: () =>
      new Promise<void>((resolve) => {
        agent.destroy();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
