// Free loopback ports for the servers the tests and benchmarks start (in tools/ for both).
//
// The kernel's own pick (listen on port 0) comes from the ephemeral range, the
// same range it takes the source ports of outgoing connections from. A port
// picked, released and bound a moment later can meanwhile be taken by any
// client socket (a keep-alive readiness probe, a scrape), and the server then
// fails with EADDRINUSE. So ports come from below that range, and below Kubernetes'
// NodePorts, at random, and none is handed out twice by one process.
import { readFileSync } from 'node:fs';
import { randomInt } from 'node:crypto';
import net from 'node:net';

/** Above the ports services usually claim (3000, 8080, 9090, 9464...). */
const LOWEST = 20_000;

/** The first port of the kernel's ephemeral range (Linux's default is 32768). */
export function ephemeralRangeStart() {
  try {
    const [first] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/);
    return Number(first) || 32_768;
  } catch {
    return 32_768;
  }
}

/**
 * The first of Kubernetes' NodePorts (its default range, 30000-32767, which the local
 * cluster keeps): while the cluster runs beside the other suites, kube-proxy sends
 * connections to 127.0.0.1 on those ports to its Services, so a server there would never
 * see its own.
 */
export const NODE_PORT_RANGE_START = 30_000;

const handedOut = new Set();

/**
 * Whether a server could listen on `port` of `host` now.
 * @param {number} port
 * @param {string} [host]
 */
export function canListen(port, host = '127.0.0.1') {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, host, () => server.close(() => resolve(true)));
  });
}

/** @returns {Promise<number>} a port nothing listens on now, not handed out before by this process */
export async function freePort() {
  const end = Math.min(ephemeralRangeStart(), NODE_PORT_RANGE_START);
  if (end - LOWEST < 1000)
    throw new Error(
      `ports: the ephemeral range starts at ${ephemeralRangeStart()}, leaving too few ports below it (and the NodePorts) above ${LOWEST}`,
    );
  for (let attempt = 0; attempt < 100; attempt += 1) {
    const port = randomInt(LOWEST, end);
    if (handedOut.has(port)) continue;
    handedOut.add(port);
    if (await canListen(port)) return port;
  }
  throw new Error(`ports: no free port found between ${LOWEST} and ${end}`);
}
