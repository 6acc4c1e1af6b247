// The node's network: a bridge holding the node's address, the kernel switches a
// Kubernetes node needs, and on the way down the removal of every interface and
// iptables chain the cluster made (kube-proxy's KUBE-*, the CNI plugins' CNI-*).
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { NETWORK } from './layout.mjs';

function ip(args) {
  execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
}

function linkExists(name) {
  return spawnSync('ip', ['link', 'show', name], { stdio: 'ignore' }).status === 0;
}

const SYSCTLS = {
  // Pods' traffic to Services and to the outside is routed by the node.
  'net/ipv4/ip_forward': '1',
  // Bridged pod traffic must pass iptables, or Services are not translated between pods on the node's bridge.
  'net/bridge/bridge-nf-call-iptables': '1',
};

/** Fails with one line when the kernel lacks what the node needs. */
export function checkKernel() {
  for (const key of Object.keys(SYSCTLS)) {
    if (!existsSync(`/proc/sys/${key}`)) {
      throw new Error(`cluster: this kernel has no /proc/sys/${key} (${key.includes('bridge') ? 'bridge netfilter, CONFIG_BRIDGE_NETFILTER' : 'IPv4 forwarding'}); a Kubernetes node needs it`);
    }
  }
}

export function setUpNodeNetwork() {
  for (const [key, value] of Object.entries(SYSCTLS)) writeFileSync(`/proc/sys/${key}`, value);
  if (!linkExists(NETWORK.nodeBridge)) ip(['link', 'add', NETWORK.nodeBridge, 'type', 'bridge']);
  const address = `${NETWORK.nodeAddress}/${NETWORK.nodePrefix}`;
  if (!execFileSync('ip', ['-o', 'addr', 'show', 'dev', NETWORK.nodeBridge], { encoding: 'utf8' }).includes(address)) {
    ip(['addr', 'add', address, 'dev', NETWORK.nodeBridge]);
  }
  ip(['link', 'set', NETWORK.nodeBridge, 'up']);
}

const OURS = /^(KUBE|CNI)-/;

/**
 * iptables-restore input that deletes every rule jumping to one of our chains and
 * then the chains themselves; other chains (Docker's, the machine's) are untouched.
 */
export function chainRemovalScript(saved) {
  const out = [];
  let table = null;
  let ours = [];
  let deletions = [];
  const flushTable = () => {
    if (table && (ours.length || deletions.length)) {
      out.push(`*${table}`, ...deletions, ...ours.map((chain) => `-F ${chain}`), ...ours.map((chain) => `-X ${chain}`), 'COMMIT');
    }
  };
  for (const line of saved.split('\n')) {
    if (line.startsWith('*')) {
      flushTable();
      table = line.slice(1).trim();
      ours = [];
      deletions = [];
    } else if (line.startsWith(':')) {
      const chain = line.slice(1).split(' ')[0];
      if (OURS.test(chain)) ours.push(chain);
    } else if (line.startsWith('-A ')) {
      const [, chain] = line.split(' ');
      const target = / -[jg] (\S+)/.exec(line)?.[1] ?? '';
      if (!OURS.test(chain) && OURS.test(target)) deletions.push(`-D ${line.slice(3)}`);
    }
  }
  flushTable();
  return out.length ? `${out.join('\n')}\n` : '';
}

function removeChains(family) {
  const save = spawnSync(`${family}-save`, [], { encoding: 'utf8' });
  if (save.status !== 0) return;
  const script = chainRemovalScript(save.stdout);
  if (script) execFileSync(`${family}-restore`, ['--noflush'], { input: script, stdio: ['pipe', 'ignore', 'pipe'] });
}

/** Removes the bridges and every iptables chain the cluster made; harmless when there are none. */
export function tearDownNodeNetwork() {
  removeChains('iptables');
  removeChains('ip6tables');
  for (const bridge of [NETWORK.podBridge, NETWORK.nodeBridge]) {
    if (linkExists(bridge)) ip(['link', 'delete', bridge]);
  }
}

