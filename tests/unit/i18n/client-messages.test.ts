import { describe, expect, it } from 'vitest';
import { interpolate } from '@/i18n/client-messages';

describe('interpolate', () => {
  it('fills {{placeholders}} and leaves unknown ones', () => {
    expect(interpolate('Error {{status}}', { status: 503 })).toBe('Error 503');
    expect(interpolate('Slide {{ index }} of {{total}}', { index: 1, total: 3 })).toBe('Slide 1 of 3');
    expect(interpolate('Go to slide {{index}}', {})).toBe('Go to slide {{index}}');
  });

  it('does not interpret values', () => {
    expect(interpolate('{{a}}', { a: '{{b}}' })).toBe('{{b}}');
  });
});
