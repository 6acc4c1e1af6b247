import { helmBinary } from '../../../scripts/lib/helm.mjs';
import { ensureDebianPackages } from '../../../scripts/lib/system-deps.mjs';

/**
 * Once, before the test files run in parallel: fetch and unpack helm (so no two files fetch
 * it at once) and install promtool for the alert rules (so no two apt-get runs race for its lock).
 */
export default function setup(): void {
  helmBinary();
  ensureDebianPackages(['prometheus']);
}
