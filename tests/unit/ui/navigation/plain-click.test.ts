import { describe, expect, it } from 'vitest';
import { isPlainClick } from '@/ui/navigation/plain-click';

const click = { button: 0, metaKey: false, ctrlKey: false, shiftKey: false, altKey: false };
/** A stand-in for an <a>: its target and attributes are all isPlainClick reads. */
const link = (target = '', attributes: string[] = []) =>
  ({ target, hasAttribute: (name: string) => attributes.includes(name) }) as HTMLAnchorElement;

describe('isPlainClick', () => {
  it('takes over the main button on a link that opens in this tab', () => {
    expect(isPlainClick(click, link())).toBe(true);
    expect(isPlainClick(click, link('_self'))).toBe(true);
  });

  it.each([
    ['another button', { ...click, button: 1 }, link()],
    ['a modifier key (new tab or window)', { ...click, metaKey: true }, link()],
    ['ctrl', { ...click, ctrlKey: true }, link()],
    ['shift', { ...click, shiftKey: true }, link()],
    ['alt (download)', { ...click, altKey: true }, link()],
    ['a link to another tab', click, link('_blank')],
    ['a download link', click, link('', ['download'])],
  ])('leaves %s to the browser', (_, event, target) => {
    expect(isPlainClick(event, target)).toBe(false);
  });
});
