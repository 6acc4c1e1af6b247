import { describe, expect, it } from 'vitest';
import { DOCKERD_NETWORK_ARGS } from '../../../tools/docker-engine.mjs';
import { insideTestBlock } from '../../../tools/lib/test-network.mjs';

describe('the dockerd the tests start', () => {
  it('takes every network it is started with from inside 198.18.0.0/15', () => {
    const cidrs = DOCKERD_NETWORK_ARGS.join(' ').match(/\d+\.\d+\.\d+\.\d+\/\d+/g) ?? [];
    expect(cidrs).toHaveLength(2);
    for (const cidr of cidrs) expect(insideTestBlock(cidr), cidr).toBe(true);
  });
});
