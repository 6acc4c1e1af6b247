import { describe, expect, it } from 'vitest';
import { statusOfError } from '@/ui/error-view/error-status';

function withStatus(status: unknown) {
  return Object.assign(new Error('boom'), { status });
}

describe('statusOfError', () => {
  it.each([400, 403, 404, 410, 429, 500, 502, 503, 599])('keeps the status %i', (status) => {
    expect(statusOfError(withStatus(status))).toBe(status);
    expect(statusOfError({ status })).toBe(status);
  });

  it.each([0, 200, 302, 399, 600, 999, -404, 404.5, Number.NaN, Number.POSITIVE_INFINITY, '404', null, undefined, {}])(
    'uses 500 for the status %j',
    (status) => {
      expect(statusOfError(withStatus(status))).toBe(500);
    },
  );

  it.each([new Error('plain'), null, undefined, 'text', 42, {}, []])('uses 500 for %j', (error) => {
    expect(statusOfError(error)).toBe(500);
  });
});
