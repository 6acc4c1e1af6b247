/** A place in the gate: granted once it may render; leave() frees it (or the place in the queue), once. */
export interface Turn {
  granted: Promise<void>;
  leave(): void;
}

export interface RenderGate {
  /** A turn, at once or after those queued before it; null when every slot and the queue are taken. */
  enter(): Turn | null;
  readonly active: number;
  readonly queued: number;
}

/**
 * At most `concurrency` renders at once and `queue` more waiting, first come first served:
 * what a flood of renders can take is bounded, and beyond it the caller sheds.
 */
export function createRenderGate(
  limits: { concurrency: number; queue: number },
  onChange: (active: number, queued: number) => void = () => {},
): RenderGate {
  let active = 0;
  const waiting = new Set<() => void>();
  const changed = () => onChange(active, waiting.size);

  const passOn = () => {
    const next = waiting.values().next();
    if (next.done) active -= 1;
    else {
      waiting.delete(next.value);
      next.value();
    }
    changed();
  };

  return {
    enter() {
      let left = false;
      if (active < limits.concurrency) {
        active += 1;
        changed();
        return {
          granted: Promise.resolve(),
          leave: () => {
            if (left) return;
            left = true;
            passOn();
          },
        };
      }
      if (waiting.size >= limits.queue) return null;
      let granted = false;
      let grant!: () => void;
      const turn = new Promise<void>((resolve) => {
        grant = () => {
          granted = true;
          resolve();
        };
      });
      waiting.add(grant);
      changed();
      return {
        granted: turn,
        leave: () => {
          if (left) return;
          left = true;
          if (granted) passOn();
          else {
            waiting.delete(grant);
            changed();
          }
        },
      };
    },
    get active() {
      return active;
    },
    get queued() {
      return waiting.size;
    },
  };
}
