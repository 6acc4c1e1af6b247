// Health probes for the components, and a bounded wait that names what is not ready.
import { readFileSync } from 'node:fs';
import https from 'node:https';
import { waitFor } from '../lib/wait.mjs';
import { logTail } from './processes.mjs';
import { pkiFiles } from './pki.mjs';

/**
 * GETs `url`; resolves with the status. HTTPS goes with the admin's client
 * certificate, or with no verification for components' self-signed health ports.
 * @param {string} url
 * @param {{ admin?: boolean }} [options]
 */
export function probe(url, { admin = false } = {}) {
  if (url.startsWith('http:')) {
    return fetch(url, { signal: AbortSignal.timeout(2000) }).then(async (response) => {
      await response.arrayBuffer();
      return response.status;
    });
  }
  const tls = admin
    ? { ca: readFileSync(pkiFiles('ca').cert), cert: readFileSync(pkiFiles('admin').cert), key: readFileSync(pkiFiles('admin').key) }
    : { rejectUnauthorized: false };
  return new Promise((resolve, reject) => {
    const request = https.get(url, { ...tls, timeout: 2000 }, (response) => {
      response.resume();
      response.on('end', () => resolve(response.statusCode ?? 0));
    });
    request.on('timeout', () => request.destroy(new Error('timed out')));
    request.on('error', reject);
  });
}

/**
 * Resolves when `url` answers 200; else throws after `timeoutMs` with the component's last log lines.
 * @param {string} component @param {string} url @param {{ timeoutMs?: number, admin?: boolean }} [options]
 */
export async function waitHealthy(component, url, { timeoutMs = 60_000, admin = false } = {}) {
  try {
    await waitFor(
      `${component} at ${url}`,
      async () => {
        const status = await probe(url, { admin });
        if (status !== 200) throw new Error(`HTTP ${status}`);
      },
      { timeoutMs, intervalMs: 250 },
    );
  } catch (error) {
    throw new Error(
      `cluster: ${component} is not ready: ${error instanceof Error ? error.message : String(error)}\n--- last lines of its log ---\n${logTail(component)}`,
    );
  }
}
