import { describe, expect, it } from 'vitest';
import { NETWORK } from '../../../../tools/cluster/layout.mjs';
import { insideTestBlock } from '../../../../tools/lib/test-network.mjs';

describe("the local cluster's addresses", () => {
  it('keeps the pod and Service ranges inside 198.18.0.0/15', () => {
    expect(NETWORK.testBlock).toBe('198.18.0.0/15');
    for (const cidr of [NETWORK.podCidr, NETWORK.serviceCidr, `${NETWORK.nodeAddress}/${NETWORK.nodePrefix}`])
      expect(insideTestBlock(cidr), cidr).toBe(true);
  });

  it('keeps every single address inside it', () => {
    for (const address of [NETWORK.nodeAddress, NETWORK.apiServiceAddress, NETWORK.dnsServiceAddress])
      expect(insideTestBlock(address), address).toBe(true);
  });
});
