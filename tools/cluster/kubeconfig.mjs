// Kubeconfig files: one per component identity, all naming the same API server.
// JSON is valid YAML, and every Kubernetes client reads it.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { NETWORK, PATHS, PORTS } from './layout.mjs';
import { pkiFiles } from './pki.mjs';

export const API_SERVER_URL = `https://${NETWORK.nodeAddress}:${PORTS.apiServer}`;

/** The kubeconfig path of a component whose client certificate is `certName`. @param {string} certName */
export function kubeconfigPath(certName) {
  return certName === 'admin' ? PATHS.adminKubeconfig : path.join(PATHS.config, `${certName}.kubeconfig`);
}

/** Writes a kubeconfig authenticating with the client certificate `certName`. @param {string} certName */
export function writeKubeconfig(certName) {
  const { cert, key } = pkiFiles(certName);
  const config = {
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [{ name: 'meridian', cluster: { server: API_SERVER_URL, 'certificate-authority': pkiFiles('ca').cert } }],
    users: [{ name: certName, user: { 'client-certificate': cert, 'client-key': key } }],
    contexts: [{ name: 'meridian', context: { cluster: 'meridian', user: certName } }],
    'current-context': 'meridian',
  };
  const file = kubeconfigPath(certName);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(config, null, 2)}\n`, { mode: 0o600 });
  return file;
}
