import { expect, test } from '@playwright/test';
import { payloadRows } from '../../src/build/inline-page-data.mjs';
import { payloadText } from '../../tools/bench/page-html.mjs';

/**
 * Only the interactive leaves are Client Components, and the parts that render nothing
 * (docs/performance.md, "What hydrates, and why"); the header, the slides, the sections,
 * the footer and the language lists are the server's HTML and send no code. A page's
 * data names every Client Component it renders by its export: a new one must join this
 * list, and the docs, on purpose.
 */
const OURS = [
  'BackgroundWork',
  'CarouselControls',
  'ChunkErrorSurface',
  'ClientMessagesProvider',
  'LanguageSwitcher',
  'MobileMenu',
  'NavigationProgress',
  'RouterLinks',
];
/** Next's own, by name (its others, and our error boundaries, are default exports). */
const NEXT = ['IconMark', 'MetadataBoundary', 'OutletBoundary', 'ViewportBoundary'];

/** The export names of the Client Components a page's data refers to (`I[module, chunks, name]`, the name maybe a string row). */
function clientComponentNames(data: string): string[] {
  const rows = new Map(payloadRows(data).map((row) => [row.id, row.line ?? row.text]));
  const names = [...data.matchAll(/^[0-9a-f]+:I\[\d+,\[[^\]]*\],"([^"]*)"/gm)].map(([, name]) => {
    const row = name?.startsWith('$') ? rows.get(name.slice(1)) : undefined;
    return row ? (JSON.parse(row) as string) : (name ?? '');
  });
  return [...new Set(names.filter((name) => name !== 'default'))].sort();
}

for (const path of ['/', '/ja', '/zh-CN']) {
  test(`${path}: the Client Components are the interactive leaves and the parts that render nothing`, async ({ request }) => {
    const html = await (await request.get(path)).text();
    expect(clientComponentNames(payloadText(html))).toEqual([...OURS, ...NEXT].sort());
  });
}
