import { afterEach, describe, expect, it } from 'vitest';
import { startServer, type RunningServer } from '../support/server-process';

const running: RunningServer[] = [];

afterEach(async () => {
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
});

/** Starts the entry with one bad setting and waits for it to give up. */
async function startWith(env: Record<string, string>) {
  const server = await startServer(env, { waitReady: false });
  running.push(server);
  const code = await server.exited;
  return { code, stderr: server.stderr(), stdout: server.lines() };
}

describe('a bad setting stops the server before it serves', () => {
  it.each([
    ['PORT', 'abc', 'expected an integer from 1 to 65535'],
    ['LOG_LEVEL', 'loud', 'expected one of fatal, error, warn, info, debug, trace, silent'],
    ['METRICS_PORT', '70000', 'expected an integer from 1 to 65535'],
    ['TRUST_PROXY', 'yes', 'use false, a number of trusted hops'],
    [
      'TRUST_PROXY',
      'true',
      'trusting every hop lets any visitor choose their address; use false, a number of trusted hops from 0 to 100 (1 behind one load balancer), or a comma-separated list of addresses, CIDRs, loopback, linklocal, uniquelocal',
    ],
    ['SHUTDOWN_TIMEOUT_MS', '-1', 'expected an integer from 0 to 600000'],
    ['OTEL_EXPORTER_OTLP_ENDPOINT', 'not-a-url', 'expected an http(s) URL'],
    ['HEADERS_TIMEOUT_MS', '500', 'expected an integer from 1000 to 120000'],
    ['MAX_CONNECTIONS', '0', 'expected an integer from 1 to 1000000'],
  ])('%s=%s exits 1 with one line on stderr naming the variable and what it allows', async (variable, value, allowed) => {
    const { code, stderr, stdout } = await startWith({ [variable]: value });

    expect(code).toBe(1);
    expect(stderr.endsWith('\n')).toBe(true);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(variable);
    expect(lines[0]).toContain(JSON.stringify(value));
    expect(lines[0]).toContain(allowed);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stdout).toEqual([]);
  });

  it('refuses a metrics port equal to the public port, in one line', async () => {
    const { code, stderr, stdout } = await startWith({ PORT: '4567', METRICS_PORT: '4567' });

    expect(code).toBe(1);
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('METRICS_PORT');
    expect(lines[0]).toContain('must differ from PORT');
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stdout).toEqual([]);
  });

  it('names the first bad variable only, when several are wrong', async () => {
    const { code, stderr } = await startWith({ PORT: 'abc', LOG_LEVEL: 'loud' });

    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toHaveLength(1);
  });
});
