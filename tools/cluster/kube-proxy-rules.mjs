// What kube-proxy (iptables mode) has programmed for a NodePort, read from the nat
// table: the pod addresses a new connection to that port is translated to now.
import { run } from '../lib/command.mjs';

/** The target of a rule (`-j CHAIN`). @param {string} rule */
const jumpOf = (rule) => /\s-j\s+(\S+)/.exec(rule)?.[1];
/** A DNAT rule's destination. @param {string} rule */
const dnatOf = (rule) => /--to-destination\s+(\S+)/.exec(rule)?.[1];

/**
 * The `ip:port` destinations kube-proxy sends a new TCP connection to `nodePort` to, as
 * `iptables-save -t nat` prints its chains: KUBE-NODEPORTS jumps to the Service port's
 * KUBE-EXT-<hash>, which jumps to the chain picking one KUBE-SEP-* chain per endpoint,
 * each a DNAT. Empty while the port is not programmed (no endpoints: kube-proxy rejects it).
 * @param {string} natRules
 * @param {number} nodePort
 * @returns {string[]} sorted
 */
export function nodePortDestinations(natRules, nodePort) {
  const rules = natRules.split('\n').filter((line) => line.startsWith('-A '));
  const inChain = (/** @type {string} */ chain) => rules.filter((rule) => rule.startsWith(`-A ${chain} `));
  const external = inChain('KUBE-NODEPORTS')
    .filter((rule) => / -p tcp /.test(rule) && new RegExp(` --dport ${nodePort}(\\s|$)`).test(rule))
    .map(jumpOf)
    .find((chain) => chain?.startsWith('KUBE-EXT-'));
  // KUBE-SVC-* (externalTrafficPolicy Cluster) or KUBE-SVL-* (Local): the endpoints' choice.
  const service =
    external &&
    inChain(external)
      .map(jumpOf)
      .find((chain) => /^KUBE-SV[CL]-/.test(chain ?? ''));
  if (!service) return [];
  return inChain(service)
    .map(jumpOf)
    .filter((chain) => chain?.startsWith('KUBE-SEP-'))
    .flatMap((endpoint) => inChain(/** @type {string} */ (endpoint)).map(dnatOf))
    .filter((destination) => destination !== undefined)
    .sort();
}

/** `nodePortDestinations` of the node's nat table now (needs root, as the cluster does). @param {number} nodePort */
export async function programmedNodePortDestinations(nodePort) {
  const { stdout } = await run('iptables-save', ['-t', 'nat']);
  return nodePortDestinations(stdout, nodePort);
}
