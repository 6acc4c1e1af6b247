import { runInNewContext } from 'node:vm';
import { expect, test } from '@playwright/test';

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

/** The page data the HTML's scripts hand React, read by running them as a browser would. */
function pageData(html: string): string {
  const self = { __next_f: [] as unknown[][] };
  for (const [, script] of html.matchAll(/<script>(self\.__next_f\.push\([\s\S]*?)<\/script>/g)) runInNewContext(script ?? '', { self });
  return self.__next_f.map((entry) => (typeof entry[1] === 'string' ? entry[1] : '')).join('');
}

/** The export names of the Client Components a page's data refers to (`I[module, chunks, name]`, the name maybe a string row). */
function clientComponentNames(data: string): string[] {
  const rows = new Map(
    data.split('\n').flatMap((line) => (/^([0-9a-f]+):(.*)$/.exec(line) ? [[line.split(':')[0], line.slice(line.indexOf(':') + 1)]] : [])),
  );
  const names = [...data.matchAll(/^[0-9a-f]+:I\[\d+,\[[^\]]*\],"([^"]*)"/gm)].map(([, name]) => {
    const row = name?.startsWith('$') ? rows.get(name.slice(1)) : undefined;
    return row ? (JSON.parse(row) as string) : (name ?? '');
  });
  return [...new Set(names.filter((name) => name !== 'default'))].sort();
}

for (const path of ['/', '/ja', '/zh-CN']) {
  test(`${path}: the Client Components are the interactive leaves and the parts that render nothing`, async ({ request }) => {
    const html = await (await request.get(path)).text();
    expect(clientComponentNames(pageData(html))).toEqual([...OURS, ...NEXT].sort());
  });
}
