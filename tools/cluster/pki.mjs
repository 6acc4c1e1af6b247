// The cluster's certificates, made with openssl: one CA, a serving certificate for
// etcd, the API server and the kubelet, and a client certificate per component,
// its identity in CN (user) and O (group) as Kubernetes' RBAC reads them; and the
// aggregation layer's own CA, whose one client is the API server as a front proxy.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runSync } from '../lib/command.mjs';
import { NETWORK, PATHS } from './layout.mjs';

/** @typedef {import('./layout.mjs').ClusterNode} ClusterNode */

/** Short-lived on purpose: a cluster lives for one test run or one afternoon. */
const VALID_DAYS = '30';

/** Extensions come only from the command line; this config just satisfies `req`. */
const OPENSSL_CONFIG = '[req]\ndistinguished_name = dn\nprompt = no\n[dn]\n';

const API_SERVER_NAMES = [
  'kubernetes',
  'kubernetes.default',
  'kubernetes.default.svc',
  `kubernetes.default.svc.${NETWORK.clusterDomain}`,
  'localhost',
];

/** @type {{ name: string, subject: string, usage: string, altNames?: string[] }[]} */
const CERTIFICATES = [
  { name: 'etcd-server', subject: '/CN=etcd', usage: 'serverAuth', altNames: ['IP:127.0.0.1', 'DNS:localhost'] },
  { name: 'apiserver-etcd-client', subject: '/CN=kube-apiserver-etcd-client', usage: 'clientAuth' },
  {
    name: 'apiserver',
    subject: '/CN=kube-apiserver',
    usage: 'serverAuth',
    altNames: [
      'IP:127.0.0.1',
      `IP:${NETWORK.nodeAddress}`,
      `IP:${NETWORK.apiServiceAddress}`,
      ...API_SERVER_NAMES.map((name) => `DNS:${name}`),
    ],
  },
  // The API server calls kubelets (logs, exec, port-forward) as a cluster admin.
  { name: 'apiserver-kubelet-client', subject: '/O=system:masters/CN=kube-apiserver-kubelet-client', usage: 'clientAuth' },
  { name: 'admin', subject: '/O=system:masters/CN=meridian-admin', usage: 'clientAuth' },
  { name: 'controller-manager', subject: '/CN=system:kube-controller-manager', usage: 'clientAuth' },
  { name: 'scheduler', subject: '/CN=system:kube-scheduler', usage: 'clientAuth' },
  { name: 'kube-proxy', subject: '/CN=system:kube-proxy', usage: 'clientAuth' },
  // Bound to what it reads by cluster:up's RBAC (addons.mjs): no built-in role covers it.
  { name: 'kube-router', subject: '/CN=meridian:kube-router', usage: 'clientAuth' },
];

/**
 * The names of a node's kubelet certificates: the first node's keep the names they had
 * when the cluster had one node.
 * @param {ClusterNode} node
 */
export function kubeletCertificates({ index, name }) {
  const suffix = index === 0 ? '' : `-${name}`;
  return { client: `kubelet-client${suffix}`, serving: `kubelet-server${suffix}` };
}

/** @param {ClusterNode} node */
function kubeletCertificateRequests(node) {
  const names = kubeletCertificates(node);
  return [
    // The Node authorizer and NodeRestriction admit a kubelet by this exact identity.
    { name: names.client, subject: `/O=system:nodes/CN=system:node:${node.name}`, usage: 'clientAuth' },
    { name: names.serving, subject: `/CN=${node.name}`, usage: 'serverAuth', altNames: [`IP:${node.address}`, `DNS:${node.name}`] },
  ];
}

/** Paths of a certificate and its key in the PKI folder. @param {string} name */
export function pkiFiles(name) {
  return { cert: path.join(PATHS.pki, `${name}.crt`), key: path.join(PATHS.pki, `${name}.key`) };
}

/** @param {string[]} args */
function openssl(args) {
  runSync('openssl', args);
}

/** @param {string} name */
function newKeyArgs(name) {
  const { cert, key } = pkiFiles(name);
  return [
    '-x509',
    '-new',
    '-nodes',
    '-newkey',
    'ec',
    '-pkeyopt',
    'ec_paramgen_curve:P-256',
    '-keyout',
    key,
    '-out',
    cert,
    '-days',
    VALID_DAYS,
  ];
}

/**
 * The aggregation layer's: an extension API server (metrics-server) believes the user the
 * API server names in its headers only from a client certificate of this CA, kept apart
 * from the cluster's so no other client of the cluster can pose as the front proxy.
 */
export const FRONT_PROXY = { ca: 'front-proxy-ca', client: 'front-proxy-client' };

/** Writes the CAs, every certificate (the kubelets' of `nodes`) and the service-account signing key. @param {ClusterNode[]} nodes */
export function writePki(nodes) {
  mkdirSync(PATHS.pki, { recursive: true, mode: 0o700 });
  const config = path.join(PATHS.pki, 'openssl.cnf');
  writeFileSync(config, OPENSSL_CONFIG);
  /** A key and certificate `name`, self-signed unless `signer` names its CA. @param {string} name @param {string} subject @param {string[]} extensions @param {string} [signer] */
  const writeCertificate = (name, subject, extensions, signer) => {
    const signedBy = signer ? pkiFiles(signer) : undefined;
    openssl([
      'req',
      '-config',
      config,
      ...newKeyArgs(name),
      '-subj',
      subject,
      ...(signedBy ? ['-CA', signedBy.cert, '-CAkey', signedBy.key] : []),
      ...extensions.flatMap((ext) => ['-addext', ext]),
    ]);
  };
  /** @param {string} name @param {string} subject */
  const writeCa = (name, subject) =>
    writeCertificate(name, subject, ['basicConstraints=critical,CA:TRUE', 'keyUsage=critical,keyCertSign,cRLSign']);
  /** @param {string} caName @param {{ name: string, subject: string, usage: string, altNames?: string[] }} request */
  const writeSigned = (caName, { name, subject, usage, altNames }) => {
    const extensions = ['basicConstraints=critical,CA:FALSE', 'keyUsage=critical,digitalSignature', `extendedKeyUsage=${usage}`];
    if (altNames) extensions.push(`subjectAltName=${altNames.join(',')}`);
    writeCertificate(name, subject, extensions, caName);
  };
  writeCa('ca', '/CN=meridian-cluster-ca');
  for (const request of [...CERTIFICATES, ...nodes.flatMap(kubeletCertificateRequests)]) writeSigned('ca', request);
  writeCa(FRONT_PROXY.ca, '/CN=meridian-front-proxy-ca');
  writeSigned(FRONT_PROXY.ca, { name: FRONT_PROXY.client, subject: `/CN=${FRONT_PROXY.client}`, usage: 'clientAuth' });
  const serviceAccount = pkiFiles('service-account');
  openssl(['ecparam', '-name', 'prime256v1', '-genkey', '-noout', '-out', serviceAccount.key]);
  openssl(['ec', '-in', serviceAccount.key, '-pubout', '-out', path.join(PATHS.pki, 'service-account.pub')]);
}
