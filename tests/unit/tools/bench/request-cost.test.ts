import { describe, expect, it } from 'vitest';
import { costTable } from '../../../../tools/bench/request-cost.mjs';

const kinds = [
  { id: 'page', label: 'page /ja', path: '/ja' },
  { id: 'cheap', label: '404 /{hex}', path: '/{hex}' },
  { id: 'dear', label: '_rsc 404', path: '/ja/{hex}' },
];

describe('the request cost table', () => {
  it("states each kind's cost as the page's median req/s over its own, the most expensive first", () => {
    const table = costTable(kinds, { page: [10_000, 12_000, 11_000], cheap: [9_000, 13_000], dear: [300, 250, 200] });
    expect(table.pageRps).toBe(11_000);
    expect(table.rows.map((row) => row.id)).toEqual(['dear', 'page', 'cheap']);
    expect(table.worst).toMatchObject({ id: 'dear', medianRps: 250, costOfPage: 44, rps: [300, 250, 200] });
    expect(table.rows.find((row) => row.id === 'page')?.costOfPage).toBe(1);
    expect(table.rows.find((row) => row.id === 'cheap')?.costOfPage).toBe(0.85);
  });

  it('puts a kind that was never measured (or answered nothing) first, without a cost: it meets no target', () => {
    const table = costTable(kinds, { page: [10_000], cheap: [0], dear: [5_000] });
    expect(table.worst).toMatchObject({ id: 'cheap', costOfPage: null });
    expect(costTable(kinds, { page: [10_000], dear: [5_000] }).worst).toMatchObject({ id: 'cheap', costOfPage: null, rps: [] });
  });
});
