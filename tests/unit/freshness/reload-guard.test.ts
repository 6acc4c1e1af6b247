import { describe, expect, it } from 'vitest';
import { decideChunkReload, RELOAD_GUARD_MS, RELOAD_MARKER_KEY } from '@/freshness/reload-guard';

const NOW = 1_700_000_000_000;

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe('decideChunkReload', () => {
  it.each([NOW, 0])('reloads the first time and leaves a marker (clock at %s)', (now) => {
    const storage = memoryStorage();
    expect(decideChunkReload(storage, now)).toBe('reload');
    expect(storage.values.get(RELOAD_MARKER_KEY)).toBe(String(now));
  });

  it('blocks while the marker is fresh, and reloads again once it is older than 10 s', () => {
    const storage = memoryStorage();
    decideChunkReload(storage, NOW);
    expect(decideChunkReload(storage, NOW + RELOAD_GUARD_MS - 1)).toBe('blocked');
    expect(decideChunkReload(storage, NOW + RELOAD_GUARD_MS + 1)).toBe('reload');
    expect(storage.values.get(RELOAD_MARKER_KEY)).toBe(String(NOW + RELOAD_GUARD_MS + 1));
  });

  it('blocks on a marker a little in the future (the clock was set back a few seconds)', () => {
    expect(decideChunkReload(memoryStorage({ [RELOAD_MARKER_KEY]: String(NOW + 5000) }), NOW)).toBe('blocked');
  });

  it.each(['garbage', '', '-1', 'Infinity', 'NaN', String(NOW + RELOAD_GUARD_MS + 1000)])(
    'reloads past a marker that does not count (%j)',
    (marker) => {
      expect(decideChunkReload(memoryStorage({ [RELOAD_MARKER_KEY]: marker }), NOW)).toBe('reload');
    },
  );

  it('blocks without storage: nothing could stop a reload loop', () => {
    expect(decideChunkReload(null, NOW)).toBe('blocked');
  });

  it.each(['getItem', 'setItem'] as const)('blocks, and does not throw, when %s throws', (method) => {
    const storage = memoryStorage();
    storage[method] = () => {
      throw new DOMException('The operation is insecure.', 'SecurityError');
    };
    expect(() => decideChunkReload(storage, NOW)).not.toThrow();
    expect(decideChunkReload(storage, NOW)).toBe('blocked');
  });
});
