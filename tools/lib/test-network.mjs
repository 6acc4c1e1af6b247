// The one block of addresses test traffic may go to besides loopback: 198.18.0.0/15,
// which RFC 2544 sets aside for network tests. The local cluster and the Docker engine
// the tests start take their ranges from it.
import { BlockList } from 'node:net';

export const TEST_BLOCK = '198.18.0.0/15';

/**
 * Whether `inner` (a CIDR, or an address: a /32) lies wholly inside the CIDR `outer`.
 * @param {string} outer
 * @param {string} inner
 */
export function cidrContains(outer, inner) {
  const [outerAddress = '', outerPrefix] = outer.split('/');
  const [innerAddress = '', innerPrefix = '32'] = inner.split('/');
  const block = new BlockList();
  block.addSubnet(outerAddress, Number(outerPrefix));
  return Number(innerPrefix) >= Number(outerPrefix) && block.check(innerAddress);
}

/** Whether a CIDR or address lies wholly inside 198.18.0.0/15. */
export const insideTestBlock = (/** @type {string} */ cidr) => cidrContains(TEST_BLOCK, cidr);
