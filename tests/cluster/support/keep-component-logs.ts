import { afterAll } from 'vitest';
import { keepComponentLogs } from '../../../tools/cluster/component-logs.mjs';

// After each cluster test file, so a red run keeps what says why.
afterAll(() => keepComponentLogs());
