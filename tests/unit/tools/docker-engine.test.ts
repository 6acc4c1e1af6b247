import { describe, expect, it } from 'vitest';
import { DOCKERD_NETWORK_ARGS, insideTestBlock } from '../../../tools/docker-engine.mjs';

describe('insideTestBlock', () => {
  it.each([
    ['198.18.0.0/15', true],
    ['198.19.0.0/24', true],
    ['198.18.64.0/24', true],
    ['198.16.0.0/14', false],
    ['172.17.0.0/16', false],
    ['10.0.0.0/8', false],
    ['192.168.0.0/16', false],
    ['198.20.0.0/24', false],
  ])('%s → %s', (cidr, expected) => {
    expect(insideTestBlock(cidr)).toBe(expected);
  });

  it('holds every network dockerd is started with', () => {
    const cidrs = DOCKERD_NETWORK_ARGS.join(' ').match(/\d+\.\d+\.\d+\.\d+\/\d+/g) ?? [];
    expect(cidrs).toHaveLength(2);
    for (const cidr of cidrs) expect(insideTestBlock(cidr), cidr).toBe(true);
  });
});
