import { createServer, type Server } from 'node:net';
import { describe, expect, it } from 'vitest';
import { createPageViewTokens } from '@/server/serving/telemetry/page-view-tokens';
import { PAGE_VIEW_TIMING } from '@/shared/page-view-token';
import { runSync } from '../../../../tools/lib/command.mjs';
import { loopbackSources } from '../../../../tools/telemetry-attack/attacks.mjs';
import { buildOfToken, send, PAGE_VIEW_TIMING as TOOL_TIMING, tokenOf } from '../../../../tools/telemetry-attack/requests.mjs';

describe('the attacker reads pages as our own pages do', () => {
  it('finds the token under the Server-Timing name the server uses', () => {
    expect(TOOL_TIMING).toBe(PAGE_VIEW_TIMING);
    const token = createPageViewTokens({ keys: ['k'.repeat(32)], ttlMs: 60_000 }).issue('cluster-b', 'ja');
    expect(tokenOf(`cache;dur=1, ${PAGE_VIEW_TIMING};desc="${token}"`)).toBe(token);
    expect(tokenOf('cache;dur=1')).toBeUndefined();
    expect(tokenOf(undefined)).toBeUndefined();
    // Signed, not hidden: anyone reads which build a page is of.
    expect(buildOfToken(token)).toBe('cluster-b');
  });

  it('has a client per loopback address, none of them 127.0.0.1', () => {
    const sources = loopbackSources(300);
    expect(new Set(sources).size).toBe(300);
    expect(sources[0]).toBe('127.0.0.2');
    expect(sources).not.toContain('127.0.0.1');
    expect(sources.every((address) => /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(address) && !address.endsWith('.256'))).toBe(true);
  });
});

/** `server` listening on a free loopback port: its URL, and how to close it. */
async function listening(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}/`, close: () => new Promise((resolve) => server.close(resolve)) };
}

describe('the attacker tallies what came back', () => {
  it('says why no answer came: a port refusing, a connection cut, a server silent past the timeout', async () => {
    const cutting = await listening(createServer((socket) => socket.resetAndDestroy()));
    try {
      expect(await send(cutting.url)).toMatchObject({ status: 0, failure: 'ECONNRESET' });
    } finally {
      await cutting.close();
    }
    expect(await send(cutting.url)).toMatchObject({ status: 0, failure: 'ECONNREFUSED' });

    // Reads the request, never answers.
    const silent = await listening(createServer((socket) => socket.resume()));
    try {
      expect(await send(silent.url, { timeoutMs: 200 })).toMatchObject({ status: 0, failure: 'ETIMEDOUT' });
    } finally {
      await silent.close();
    }
  });
});

describe('npm run attack:telemetry', () => {
  const attack = (...args: string[]) => runSync(process.execPath, ['scripts/attack-telemetry.mjs', ...args], { check: false });

  it('answers --help, and a missing target or a bound crossed with its usage and exit 2', () => {
    expect(attack('--help')).toMatchObject({ exitCode: 0, stdout: expect.stringContaining('--target <url>') });
    expect(attack()).toMatchObject({ exitCode: 2, stderr: expect.stringContaining('--target must be') });
    expect(attack('--target', 'http://127.0.0.1:9', '--seconds', '601')).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('--seconds must be'),
    });
    expect(attack('--target', 'http://127.0.0.1:9', '--attack', 'ddos')).toMatchObject({
      exitCode: 2,
      stderr: expect.stringContaining('--attack ddos'),
    });
  });
});
