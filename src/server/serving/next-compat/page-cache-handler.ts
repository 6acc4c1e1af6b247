// Next's cache handler in the renderer's process (next-app.ts names it): Next's own reader of
// the prerendered pages, whose answers link to SITE_URL's origin instead of the build's
// stand-in. It matters wherever Next sends a prerendered page itself: with NEXT_ANSWERS_ALL,
// and for any request the server hands over.
import nextFileSystemCache from 'next/dist/server/lib/incremental-cache/file-system-cache';
import { readConfig } from '@/server/config';
import { withSiteOrigin } from './site-origin';

// Next's module is CommonJS with the class as `exports.default`; compiled for Node, a default
// import of it is that exports object.
const FileSystemCache = (nextFileSystemCache as unknown as { default?: typeof nextFileSystemCache }).default ?? nextFileSystemCache;
type FileSystemCache = InstanceType<typeof FileSystemCache>;

type Entry = Awaited<ReturnType<FileSystemCache['get']>>;
type Value = NonNullable<NonNullable<Entry>['value']>;

const siteOrigin = readConfig(process.env).siteUrl ?? '';
/** Next keeps each page's entry in memory and hands out the same value: it is swapped once. */
const swapped = new WeakMap<Value, Value>();

function withOrigin(value: Value): Value {
  if (value.kind !== 'APP_PAGE') return value;
  const html = value.html as unknown;
  return {
    ...value,
    html: (typeof html === 'string' ? withSiteOrigin(Buffer.from(html), siteOrigin).toString('utf8') : html) as typeof value.html,
    rscData: value.rscData && withSiteOrigin(value.rscData, siteOrigin),
    segmentData:
      value.segmentData &&
      new Map([...value.segmentData].map(([segment, payload]) => [segment, withSiteOrigin(payload, siteOrigin)] as const)),
  };
}

export default class SiteOriginCache extends FileSystemCache {
  override async get(...args: Parameters<FileSystemCache['get']>): Promise<Entry> {
    const entry = await super.get(...args);
    const value = entry?.value;
    if (!entry || !value) return entry;
    let sent = swapped.get(value);
    if (!sent) {
      sent = withOrigin(value);
      swapped.set(value, sent);
    }
    return { ...entry, value: sent };
  }
}
