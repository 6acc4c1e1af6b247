import { cpSync, existsSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from '../lib/app-server.mjs';
import { PATHS } from './layout.mjs';
import { recordedNodes } from './node-count.mjs';

/**
 * Copies every component's log, and the pods' of every node (CoreDNS, the app), out of
 * the cluster's state folder, which cluster:down removes, into test-reports/<suite>/.
 */
export function keepComponentLogs(suite = 'cluster') {
  const reports = path.join(ROOT, 'test-reports', suite);
  if (existsSync(PATHS.logs)) cpSync(PATHS.logs, path.join(reports, 'logs'), { recursive: true });
  for (const { paths } of recordedNodes())
    if (existsSync(paths.podLogs)) cpSync(paths.podLogs, path.join(reports, 'pod-logs'), { recursive: true });
}
