import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { decideView, parseBuildRef, watchRelease, type BuildRef } from '@/server/serving/canary/release-view';

const A: BuildRef = { id: 'A', timestamp: 1 };
const B: BuildRef = { id: 'B', timestamp: 2 };
const C: BuildRef = { id: 'C', timestamp: 3 };

describe('decideView: what a pod says of the release', () => {
  it.each([
    ['a stable pod during a canary', A, A, B, { stable: A, canary: B }],
    ['a canary pod during a canary', B, A, B, { stable: A, canary: B }],
    ['a canary pod that cannot reach the canary Service', B, A, null, { stable: A, canary: B }],
    ['any pod once promoted (canaryService back on the stable pods)', B, B, B, { stable: B, canary: null }],
    ['a stable pod after an abort (canaryService on the stable pods)', A, A, A, { stable: A, canary: null }],
    ['an aborted canary pod still draining', B, A, A, { stable: A, canary: B }],
    ['a pod of the first canary once a second replaced it', B, A, C, { stable: A, canary: C }],
  ])('%s', (_case, self, stable, canary, view) => {
    expect(decideView(self, stable, canary)).toEqual(view);
  });

  it('has no view while the stable build is unknown', () => {
    expect(decideView(B, null, B)).toBeNull();
  });
});

describe('parseBuildRef', () => {
  it('reads a current.json body', () => {
    expect(parseBuildRef({ id: 'e2e-a', timestamp: 5, extra: 1 })).toEqual({ id: 'e2e-a', timestamp: 5 });
  });

  it.each([null, 'A', {}, { id: 'A' }, { id: '', timestamp: 1 }, { id: 'a b', timestamp: 1 }, { id: 'A', timestamp: 'x' }])(
    'refuses %j',
    (body) => {
      expect(parseBuildRef(body)).toBeNull();
    },
  );
});

describe('watchRelease', () => {
  function watch(self: BuildRef, answers: Record<string, BuildRef | Error>) {
    const lines: Record<string, unknown>[] = [];
    const logger = pino({}, { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) });
    const changes: unknown[] = [];
    const release = watchRelease({
      self,
      services: { stable: 'http://stable', canary: 'http://canary' },
      logger,
      onChange: (view) => changes.push(view),
      fetchBuildOf: async (origin) => {
        const answer = answers[origin];
        if (!answer || answer instanceof Error) throw answer ?? new Error('no answer');
        return answer;
      },
    });
    return { release, lines, changes, answers };
  }

  it('has no view until the stable Service answers, then follows both Services (a pod of the canary, promoted)', async () => {
    const { release, changes, answers } = watch(B, { 'http://stable': new Error('refused'), 'http://canary': B });
    await release.refresh();
    expect(release.current()).toBeNull();
    answers['http://stable'] = A;
    answers['http://canary'] = B;
    await release.refresh();
    expect(release.current()).toEqual({ stable: A, canary: B });
    answers['http://stable'] = B;
    answers['http://canary'] = B;
    await release.refresh();
    await release.refresh();
    expect(changes).toEqual([
      { stable: A, canary: B },
      { stable: B, canary: null },
    ]);
    // A, promoted away, and B were live; C never was.
    expect([A, B, C].map((build) => release.wasLive(build.id))).toEqual([true, true, false]);
    release.stop();
  });

  it("keeps a Service's last answer while it fails, and logs the failure once", async () => {
    const { release, lines, answers } = watch(A, { 'http://stable': A, 'http://canary': B });
    await release.refresh();
    answers['http://canary'] = new Error('timeout');
    await release.refresh();
    await release.refresh();
    expect(release.current()).toEqual({ stable: A, canary: B });
    expect(lines.filter((line) => line.msg === 'The canary Service does not answer')).toHaveLength(1);
    release.stop();
  });
});
