import { CrashButton } from './crash-button.e2e';

/**
 * Test builds only (see pageExtensions in next.config.js): `?mode=server`
 * fails the server render; otherwise a button fails a client render.
 */
export default async function CrashFixturePage({ searchParams }: { searchParams: Promise<{ mode?: string }> }) {
  const { mode } = await searchParams;
  if (mode === 'server') throw new Error('e2e fixture: the server render failed on purpose');
  return <CrashButton />;
}
