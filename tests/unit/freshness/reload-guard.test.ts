import { describe, expect, it } from 'vitest';
import { decideChunkReload, RELOAD_GUARD_MS, RELOAD_MARKER_KEY } from '@/freshness/reload-guard';

function memoryStorage(initial: Record<string, string> = {}) {
  const values = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => values.get(key) ?? null,
    setItem: (key: string, value: string) => void values.set(key, value),
    values,
  };
}

describe('decideChunkReload', () => {
  it('reloads the first time and leaves a marker', () => {
    const storage = memoryStorage();
    expect(decideChunkReload(storage, 50_000)).toBe('reload');
    expect(storage.values.get(RELOAD_MARKER_KEY)).toBe('50000');
  });

  it('blocks while the marker is fresh, and reloads again once it is older than 10 s', () => {
    const storage = memoryStorage();
    decideChunkReload(storage, 50_000);
    expect(decideChunkReload(storage, 50_000 + RELOAD_GUARD_MS - 1)).toBe('blocked');
    expect(decideChunkReload(storage, 50_000 + RELOAD_GUARD_MS + 1)).toBe('reload');
  });

  it.each(['garbage', '', '-1', String(50_000 + 11_000)])('reloads past a marker that does not count (%j)', (marker) => {
    expect(decideChunkReload(memoryStorage({ [RELOAD_MARKER_KEY]: marker }), 50_000)).toBe('reload');
  });

  it('blocks without storage: nothing could stop a reload loop', () => {
    expect(decideChunkReload(null, 50_000)).toBe('blocked');
  });

  it.each(['getItem', 'setItem'] as const)('blocks, and does not throw, when %s throws', (method) => {
    const storage = memoryStorage();
    storage[method] = () => {
      throw new DOMException('denied', 'SecurityError');
    };
    expect(decideChunkReload(storage, 50_000)).toBe('blocked');
  });
});
