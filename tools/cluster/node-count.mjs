// How many nodes the running cluster has, recorded by cluster:up for everything that
// later reads, feeds or stops them (cluster:image, cluster:down, the tests).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { clusterNodes, PATHS } from './layout.mjs';

/** @param {number} count */
export function recordNodeCount(count) {
  mkdirSync(path.dirname(PATHS.nodeCount), { recursive: true });
  writeFileSync(PATHS.nodeCount, JSON.stringify({ count }));
}

/** The nodes cluster:up recorded; one when it recorded none (a cluster made before it could have more). */
export function recordedNodes() {
  const count = existsSync(PATHS.nodeCount) ? Number(JSON.parse(readFileSync(PATHS.nodeCount, 'utf8')).count) : 1;
  return clusterNodes(count);
}
