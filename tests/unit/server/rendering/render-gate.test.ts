import { describe, expect, it } from 'vitest';
import { createRenderGate } from '@/server/rendering/render-gate';

const settled = async (promise: Promise<void>) => {
  let done = false;
  void promise.then(() => (done = true));
  await new Promise((resolve) => setImmediate(resolve));
  return done;
};

describe('createRenderGate', () => {
  it('lets `concurrency` in at once, queues `queue` more in order, and refuses the rest', async () => {
    const changes: [number, number][] = [];
    const gate = createRenderGate({ concurrency: 2, queue: 2 }, (active, queued) => changes.push([active, queued]));
    const [a, b, c, d] = [gate.enter(), gate.enter(), gate.enter(), gate.enter()];
    expect(gate.enter()).toBeNull();
    expect([gate.active, gate.queued]).toEqual([2, 2]);
    expect(await settled(a!.granted)).toBe(true);
    expect(await settled(c!.granted)).toBe(false);

    a!.leave();
    expect(await settled(c!.granted)).toBe(true);
    expect(await settled(d!.granted)).toBe(false);
    expect([gate.active, gate.queued]).toEqual([2, 1]);
    b!.leave();
    c!.leave();
    d!.leave();
    expect([gate.active, gate.queued]).toEqual([0, 0]);
    expect(changes.at(-1)).toEqual([0, 0]);
  });

  it('gives up a queued place when its visitor leaves, and counts each leave once', async () => {
    const gate = createRenderGate({ concurrency: 1, queue: 1 });
    const first = gate.enter();
    const queued = gate.enter();
    queued!.leave();
    queued!.leave();
    expect([gate.active, gate.queued]).toEqual([1, 0]);
    const next = gate.enter();
    expect(next).not.toBeNull();
    first!.leave();
    first!.leave();
    expect(await settled(next!.granted)).toBe(true);
    expect([gate.active, gate.queued]).toEqual([1, 0]);
  });

  it('with no queue, refuses as soon as every slot is taken', () => {
    const gate = createRenderGate({ concurrency: 1, queue: 0 });
    expect(gate.enter()).not.toBeNull();
    expect(gate.enter()).toBeNull();
  });
});
