import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { PATHS } from '../../../scripts/cluster/layout.mjs';
import { ROOT } from '../../../tools/lib/app-server.mjs';

/** Copies every component's log out of the cluster's state folder, which cluster:down removes. */
export function keepComponentLogs(): void {
  if (existsSync(PATHS.logs)) cpSync(PATHS.logs, path.join(ROOT, 'test-reports', 'cluster', 'logs'), { recursive: true });
}
