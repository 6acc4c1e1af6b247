import { describe, expect, it } from 'vitest';
import { CHART_DIR, EVERY_FEATURE_VALUES, helm } from '../support/chart';

describe('helm lint', () => {
  it.each([
    ['the default values', []],
    ['every optional feature on', ['--values', EVERY_FEATURE_VALUES]],
  ])('passes with %s, also with --strict', (_label, valuesArgs) => {
    for (const strict of [[], ['--strict']]) {
      const result = helm(['lint', CHART_DIR, ...strict, ...valuesArgs]);

      expect(result.stderr + result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed');
      expect(result.status, result.stdout + result.stderr).toBe(0);
    }
  });

  it('fails on values the schema refuses', () => {
    const result = helm(['lint', CHART_DIR, '--strict', '--set', 'app.logLevel=loud']);

    expect(result.status).not.toBe(0);
    expect(result.stdout + result.stderr).toContain('/app/logLevel');
  });
});
