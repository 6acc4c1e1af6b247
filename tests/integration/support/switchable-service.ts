import { createServer, connect, type Socket } from 'node:net';
import { freePort } from '../../../tools/lib/ports.mjs';

export interface SwitchableService {
  url: string;
  /** Sends new connections to this port from now on, and closes the open ones, as a Service whose selector changed. */
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
      for (const socket of open) socket.destroy();
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of open) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
