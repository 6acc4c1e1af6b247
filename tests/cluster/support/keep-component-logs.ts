import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll } from 'vitest';
import { PATHS } from '../../../scripts/cluster/layout.mjs';
import { ROOT } from '../../../scripts/lib/app-server.mjs';

// After each cluster test file, every component's log is copied out of the cluster's
// state folder, which cluster:down removes: a red run keeps what says why.
afterAll(() => {
  if (existsSync(PATHS.logs)) cpSync(PATHS.logs, path.join(ROOT, 'test-reports', 'cluster', 'logs'), { recursive: true });
});
