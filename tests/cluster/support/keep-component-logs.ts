import { afterAll } from 'vitest';
import { keepComponentLogs } from './component-logs';

// After each cluster test file, so a red run keeps what says why.
afterAll(() => keepComponentLogs());
