import { describe, expect, it } from 'vitest';
import { demoFailure } from '../../cluster/support/demo-output';

const NODE_UNCAUGHT = `file:///work/main/tools/rollout/witnesses.mjs:47
    throw new Error(
    ^

Error: the beacon of build_update_detected: none counted yet
    at file:///work/main/tools/rollout/witnesses.mjs:47:11

Node.js v20.19.2`;

describe('demoFailure', () => {
  it("puts an uncaught error's own line first, not the source line Node prints above it", () => {
    const summary = demoFailure({ exitCode: 1, stdout: '1.0s traffic\n16.9s pod gone\n', stderr: NODE_UNCAUGHT });
    expect(summary.split('\n')[0]).toBe(
      'exit 1: Error: the beacon of build_update_detected: none counted yet | stdout ends: 16.9s pod gone',
    );
  });

  it('falls back to a line naming an error, then to the last line of stderr', () => {
    expect(demoFailure({ exitCode: 1, stdout: '', stderr: 'npm ERR! TypeError in script\n' }).split('\n')[0]).toBe(
      'exit 1: npm ERR! TypeError in script | stdout ends: nothing on stdout',
    );
    expect(demoFailure({ exitCode: undefined, stdout: 'done', stderr: 'killed\n' }).split('\n')[0]).toBe(
      'exit by a signal: killed | stdout ends: done',
    );
  });
});
