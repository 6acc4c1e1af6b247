// The load balancer in front of the app processes: health checks on /readyz
// decide which servers get traffic, as in production, and nothing hides an error.

/** How often haproxy asks each server's /readyz. */
export const CHECK_INTERVAL_MS = 500;
/** Failed checks before a server leaves the rotation. */
export const CHECK_FALL = 3;

/**
 * The longest a process keeps getting new requests once its /readyz answers
 * 503: up to an interval until the next check, CHECK_FALL failed checks an
 * interval apart, the last taking at most `inter` (haproxy's check timeout
 * when `timeout check` is unset). SHUTDOWN_DELAY_MS must exceed it.
 */
export const DETECTION_MS = CHECK_INTERVAL_MS * (CHECK_FALL + 1);

/**
 * haproxy.cfg for one frontend on `port` and one backend of `servers`.
 * - `fall 3`: checks lost to a busy event loop do not take a healthy server
 *   out (with `fall 2`, a CI run on a loaded machine saw two in a row take the
 *   only serving process out for a second of 503s); three still leave
 *   DETECTION_MS well under the app's 5 s default shutdown delay.
 * - `rise 1`: a new server serves as soon as its /readyz says so.
 * - Keep-alive to the servers stays on (the default `http-reuse safe`, no
 *   `http-server-close`): a draining app answers `Connection: close`, so a
 *   connection to it ends with the answer it carries, and the app closes
 *   idle ones only after the shutdown delay, long after the checks took it
 *   out of the rotation.
 * - No retries at all (`retry-on none`, which also drops haproxy's default
 *   retry on a refused connection): a request sent to a process that went
 *   away reaches the load generator as the error it is. Retries hid even an
 *   app without a shutdown delay: with SHUTDOWN_DELAY_MS=0 this rollout
 *   counted dozens of 5xx with retries off, and none with `retry-on
 *   conn-failure` and `option redispatch`. They never cover a POST anyway:
 *   the zero errors must come from the app's drain, not from the proxy.
 * - `forwardFor` (off for the rollout): `option forwardfor`, which appends the
 *   client's address to X-Forwarded-For as the compose stack's balancer does.
 * - A server is on loopback unless it names its `host` (a node's address, in front of its NodePort).
 * @param {{ port: number, servers: { name: string, port: number, host?: string }[], statsSocket: string, forwardFor?: boolean }} options
 */
export function haproxyConfig({ port, servers, statsSocket, forwardFor = false }) {
  const serverLines = servers.map(({ name, port: serverPort, host = '127.0.0.1' }) => `  server ${name} ${host}:${serverPort} check`);
  return [
    'global',
    `  stats socket ${statsSocket} mode 600 level user`,
    '',
    'defaults',
    '  mode http',
    '  timeout connect 1s',
    '  timeout client 30s',
    '  timeout server 30s',
    '  timeout http-keep-alive 30s',
    '  retry-on none',
    '',
    'frontend public',
    `  bind 127.0.0.1:${port}`,
    '  default_backend app',
    '',
    'backend app',
    '  balance roundrobin',
    ...(forwardFor ? ['  option forwardfor'] : []),
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    `  default-server inter ${CHECK_INTERVAL_MS}ms fall ${CHECK_FALL} rise 1`,
    ...serverLines,
    '',
  ].join('\n');
}
