import { rmSync, unlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eventually, logLine, request, scrape, valueOf } from '../support/http';
import { copyOfBuild, startServer, type RunningServer } from '../support/server-process';

const FAILURE_SERIES = { locale: 'ja', namespace: 'not-found', source: 'server' };

/** A server on a copy of the build whose ja/not-found.json is broken by `breakFile`. */
async function startBroken(breakFile: (file: string) => void): Promise<{ server: RunningServer; copy: string }> {
  const entry = copyOfBuild();
  const copy = path.dirname(entry);
  breakFile(path.join(copy, 'locales', 'ja', 'not-found.json'));
  // Readiness may fail on purpose (an unreadable locale file): wait for the start-up line instead.
  const server = await startServer({}, { entry, waitReady: false });
  await logLine(server, (line) => line.msg === 'Meridian ready', 60_000);
  return { server, copy };
}

function describeBrokenFile(name: string, breakFile: (file: string) => void, readyStatus: number) {
  describe(`a ${name} ja/not-found.json`, () => {
    let server: RunningServer;
    let copy: string;

    beforeAll(async () => {
      ({ server, copy } = await startBroken(breakFile));
    });

    afterAll(async () => {
      await server?.stop();
      if (copy) rmSync(copy, { recursive: true, force: true });
    });

    it('falls back to the English not-found page, still with status 404', async () => {
      const reply = await request(`${server.url}/ja/nope`);

      expect(reply.status).toBe(404);
      expect(reply.body).toContain('Page Not Found');
      expect(reply.body).not.toContain('ページが見つかりません');
    });

    it('logs "Failed locale loading" at error level with the locale, namespace, source and cause', async () => {
      const line = await logLine(server, (entry) => entry.msg === 'Failed locale loading');

      expect(line).toMatchObject({ level: 50, ...FAILURE_SERIES });
      expect(line.err).toBeDefined();
    });

    it('counts the failure in meridian_locale_load_failures_total', async () => {
      const value = await eventually(async () => {
        const found = valueOf(await scrape(server), 'meridian_locale_load_failures_total', FAILURE_SERIES);
        expect(found).toBeDefined();
        return found;
      });

      expect(value).toBe(1);
    });

    it('keeps serving the other locales’ pages', async () => {
      expect((await request(`${server.url}/ja`)).status).toBe(200);
      const english = await request(`${server.url}/nope`);
      expect(english.status).toBe(404);
      expect(english.body).toContain('Page Not Found');
    });

    it(`answers /readyz ${readyStatus}`, async () => {
      expect((await request(`${server.url}/readyz`)).status).toBe(readyStatus);
    });
  });
}

describeBrokenFile('malformed', (file) => writeFileSync(file, '{ not json'), 200);
// /readyz checks that every locale file is readable: a missing one takes the pod out of rotation.
describeBrokenFile('deleted', (file) => unlinkSync(file), 503);
