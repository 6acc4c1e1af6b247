import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { withFileLock } from '../../deployment/support/file-lock';

describe('withFileLock', () => {
  it('runs tasks under one name one after the other, and returns what each returns', async () => {
    const name = `meridian-lock-test-${randomUUID()}`;
    const events: string[] = [];
    let finishFirst = () => {};
    const firstStarted = new Promise<void>((started) => {
      void withFileLock(name, () => {
        events.push('first in');
        started();
        return new Promise<void>((resolve) => (finishFirst = resolve)).then(() => events.push('first out'));
      });
    });
    await firstStarted;
    const second = withFileLock(name, async () => {
      events.push('second in');
      return 'second result';
    });
    finishFirst();
    expect(await second).toBe('second result');
    expect(events).toEqual(['first in', 'first out', 'second in']);
  });
});
