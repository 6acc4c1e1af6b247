import { describe, expect, it } from 'vitest';
import { originForm } from '@/server/serving/edge/request-target';

describe('originForm', () => {
  it.each([
    ['/ja?x=1', '/ja?x=1'],
    ['http://evil.example/', '/'],
    ['http://evil.example', '/'],
    ['https://evil.example:443/ja/x?y=1', '/ja/x?y=1'],
    ['HTTP://evil.example?x', '/?x'],
    ['http://evil.example//other.example/', '//other.example/'],
    ['*', '*'],
    ['evil.example:443', 'evil.example:443'],
  ])('%s → %s', (target, expected) => {
    expect(originForm(target)).toBe(expected);
  });
});
