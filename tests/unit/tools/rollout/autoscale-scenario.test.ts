import { describe, expect, it } from 'vitest';
import { mergedTraffic, quantityValue } from '../../../../tools/rollout/autoscale-scenario.mjs';
import { emptyCounts } from '../../../../tools/rollout/traffic-totals.mjs';

const bucket = (second: number, counts: Partial<ReturnType<typeof emptyCounts>>) => ({ ...emptyCounts(), second, ...counts });

describe('mergedTraffic', () => {
  it("adds loads started at different times second by second, from the first load's start, their failures too", () => {
    const origin = 1_000_000;
    const steady = {
      startedAt: origin,
      traffic: {
        buckets: [
          bucket(0, { requests: 2, ok: 2, builds: { a: 2 } }),
          bucket(1, { requests: 2, ok: 1, serverErrors: 1, builds: { a: 1 } }),
        ],
        errorCodes: {},
        failures: [{ second: 1, path: '/ja', failure: '503' }],
      },
    };
    const added = {
      startedAt: origin + 1_020,
      traffic: {
        buckets: [
          bucket(0, { requests: 5, ok: 4, connectionErrors: 1, builds: { a: 3, b: 1 } }),
          bucket(1, { requests: 5, ok: 5, builds: { b: 5 } }),
        ],
        errorCodes: { ECONNRESET: 1 },
        failures: [{ second: 0, path: '/', failure: 'ECONNRESET' }],
      },
    };
    expect(mergedTraffic(origin, [steady, added])).toEqual({
      buckets: [
        bucket(0, { requests: 2, ok: 2, builds: { a: 2 } }),
        bucket(1, { requests: 7, ok: 5, serverErrors: 1, connectionErrors: 1, builds: { a: 4, b: 1 } }),
        bucket(2, { requests: 5, ok: 5, builds: { b: 5 } }),
      ],
      errorCodes: { ECONNRESET: 1 },
      failures: [
        { second: 1, path: '/ja', failure: '503' },
        { second: 1, path: '/', failure: 'ECONNRESET' },
      ],
    });
  });
});

describe('quantityValue', () => {
  it('reads the quantities the autoscaler writes averages in', () => {
    expect(quantityValue('36500m')).toBe(36.5);
    expect(quantityValue('42')).toBe(42);
    expect(quantityValue('1.5k')).toBe(1500);
  });

  it('refuses what it cannot read rather than guessing', () => {
    expect(() => quantityValue('2Mi')).toThrow('"2Mi" is not a quantity');
    expect(() => quantityValue('')).toThrow('is not a quantity');
  });
});
