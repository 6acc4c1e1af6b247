import { describe, expect, it } from 'vitest';
import { clusterNode, clusterNodes, MAX_NODES, NETWORK } from '../../../../tools/cluster/layout.mjs';
import { cidrContains, insideTestBlock } from '../../../../tools/lib/test-network.mjs';

describe("the local cluster's addresses", () => {
  it('keeps the pod and Service ranges inside 198.18.0.0/15', () => {
    expect(NETWORK.testBlock).toBe('198.18.0.0/15');
    for (const cidr of [NETWORK.podCidr, NETWORK.clusterPodCidr, NETWORK.serviceCidr, `${NETWORK.nodeAddress}/${NETWORK.nodePrefix}`])
      expect(insideTestBlock(cidr), cidr).toBe(true);
  });

  it('keeps every single address inside it', () => {
    for (const address of [NETWORK.nodeAddress, NETWORK.apiServiceAddress, NETWORK.dnsServiceAddress])
      expect(insideTestBlock(address), address).toBe(true);
  });
});

describe("the cluster's nodes", () => {
  const nodes = clusterNodes(MAX_NODES);

  it('gives the first node the single-node cluster’s name, address, pods and the machine’s namespace', () => {
    expect(clusterNode(0)).toMatchObject({
      name: 'meridian-node',
      address: NETWORK.nodeAddress,
      podCidr: NETWORK.podCidr,
      netns: null,
      cgroupRoot: '/',
    });
  });

  it('gives every node its own name, address on the first node’s network, pod range inside the cluster’s, namespace and cgroup root', () => {
    for (const key of ['name', 'address', 'podCidr', 'netns', 'cgroupRoot'] as const)
      expect(new Set(nodes.map((node) => node[key])).size, key).toBe(MAX_NODES);
    for (const node of nodes) {
      expect(cidrContains(`${NETWORK.nodeAddress}/${NETWORK.nodePrefix}`, node.address), node.name).toBe(true);
      expect(cidrContains(NETWORK.clusterPodCidr, node.podCidr), node.name).toBe(true);
    }
  });

  it('puts three nodes in two zones', () => {
    expect(clusterNodes(3).map((node) => node.zone)).toEqual(['zone-a', 'zone-b', 'zone-a']);
  });

  it('has from 1 to MAX_NODES nodes', () => {
    for (const count of [0, MAX_NODES + 1, 1.5, Number.NaN]) expect(() => clusterNodes(count), String(count)).toThrow(RangeError);
  });
});
