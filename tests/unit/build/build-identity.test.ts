import { describe, expect, it } from 'vitest';
import { checkedId, resolveBuildId } from '../../../src/build/build-identity.mjs';

const COMMIT = '6208fd708f26cc10392a23ef7fcbdcfce75a5335';

describe('resolveBuildId', () => {
  it('takes BUILD_ID from the environment, trimmed', () => {
    expect(resolveBuildId({ BUILD_ID: ' 2026.11.22-1 ' }, COMMIT)).toBe('2026.11.22-1');
  });

  it('falls back to the short commit when BUILD_ID is unset or empty', () => {
    expect(resolveBuildId({}, COMMIT)).toBe('6208fd708f26');
    expect(resolveBuildId({ BUILD_ID: '  ' }, COMMIT)).toBe('6208fd708f26');
  });

  it('falls back to the build time without a commit', () => {
    expect(resolveBuildId({}, 'unknown', 1_763_800_000_000)).toBe('t1763800000000');
  });

  it('rejects an id that cannot be an image tag or a label value, naming the variable', () => {
    expect(() => resolveBuildId({ BUILD_ID: 'feature/x' }, COMMIT)).toThrow('BUILD_ID="feature/x" must be 1-64 letters');
    expect(() => checkedId('BUILD_REVISION', 'a'.repeat(65))).toThrow('BUILD_REVISION=');
  });
});
