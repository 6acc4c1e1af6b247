import { describe, expect, it } from 'vitest';
import { cidrContains, insideTestBlock } from '../../../../tools/lib/test-network.mjs';

describe('insideTestBlock', () => {
  it.each([
    ['198.18.0.0/15', true],
    ['198.19.0.0/24', true],
    ['198.18.64.0/24', true],
    ['198.18.64.7', true],
    ['198.16.0.0/14', false],
    ['172.17.0.0/16', false],
    ['10.0.0.0/8', false],
    ['192.168.0.0/16', false],
    ['198.20.0.0/24', false],
    ['198.20.0.1', false],
  ])('%s → %s', (cidr, expected) => {
    expect(insideTestBlock(cidr)).toBe(expected);
  });
});

describe('cidrContains', () => {
  it.each([
    ['198.18.64.0/24', '198.18.64.9', true],
    ['198.18.64.0/24', '198.18.65.9', false],
    ['198.18.64.0/24', '198.18.64.0/23', false],
    ['198.18.128.0/24', '198.18.128.10/32', true],
  ])('%s holds %s → %s', (outer, inner, expected) => {
    expect(cidrContains(outer, inner)).toBe(expected);
  });
});
