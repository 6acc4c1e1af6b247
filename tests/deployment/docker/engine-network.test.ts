import { describe, expect, it } from 'vitest';
import { bridgeSubnets } from '../../../tools/docker-engine.mjs';
import { insideTestBlock } from '../../../tools/lib/test-network.mjs';

describe('the Docker engine the tests use', () => {
  it('puts containers on a bridge inside 198.18.0.0/15, never a private range', () => {
    const subnets = bridgeSubnets();
    expect(subnets.length).toBeGreaterThan(0);
    for (const subnet of subnets) expect(insideTestBlock(subnet), subnet).toBe(true);
  });
});
