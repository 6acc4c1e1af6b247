import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TEST_BUILDS } from '../../../tools/lib/builds.mjs';
import { waitFor } from '../../../tools/lib/wait.mjs';
import { request, scrape, valueOf } from '../support/http';
import { freePort, portOf, startServer, type RunningServer } from '../support/server-process';
import { switchableService, type SwitchableService } from '../../support/release-services';

// Two real builds side by side, as during a canary release: A stable, B the canary, each
// process told the addresses of the stable and canary Services (stand-ins Argo Rollouts
// would point at each build's pods, which leave open connections where they are, as
// kube-proxy does). Every request of a page of one build is sent to the other build's
// server, as the release's Service may do.
const { a: A, b: B } = TEST_BUILDS;
let servers: Record<'a' | 'b', RunningServer>;
let services: Record<'stable' | 'canary', SwitchableService>;
/** What every server of the release is told: the Services' addresses. */
let serviceEnv: Record<string, string>;

const latestOf = async (server: RunningServer) => JSON.parse((await request(`${server.url}/builds/latest.json`)).body) as unknown;

/** Waits until both servers' builds/latest.json name `id` and `canary` (the views follow the Services every 5 s). */
async function untilBothSay(id: string, canary: string) {
  await waitFor(
    `both servers to name ${id} and the canary ${canary}`,
    async () => {
      for (const server of Object.values(servers)) expect(await latestOf(server)).toEqual({ id, canary, timestamp: expect.any(Number) });
    },
    { timeoutMs: 15_000 },
  );
}

/** The scripts of a page of `server`'s build that the other server's build does not have. */
async function scriptsAloneOf(server: RunningServer, other: RunningServer): Promise<string[]> {
  const scripts = await scriptsOf(server);
  const statuses = await Promise.all(
    scripts.map(async (script) => (await request(`${other.url}${script}`, { headers: { 'X-Meridian-Forwarded': '1' } })).status),
  );
  return scripts.filter((_, index) => statuses[index] === 404);
}

/** The build scripts a server's /ja names, with the deployment id its pages ask with. */
async function scriptsOf(server: RunningServer): Promise<string[]> {
  const html = (await request(`${server.url}/ja`)).body;
  return [...new Set(html.match(/\/_next\/static\/chunks\/[^"\s]+\.js\?dpl=[\w.-]+/g) ?? [])];
}

beforeAll(async () => {
  const ports = { a: await freePort(), b: await freePort() };
  // Argo moves the canary Service to the canary's pods only once they are available.
  services = { stable: await switchableService(ports.a), canary: await switchableService(ports.a) };
  serviceEnv = { STABLE_SERVICE_URL: services.stable.url, CANARY_SERVICE_URL: services.canary.url };
  const [a, b] = await Promise.all([
    startServer(serviceEnv, { entry: A.entry, port: ports.a }),
    startServer(serviceEnv, { entry: B.entry, port: ports.b }),
  ]);
  servers = { a: a!, b: b! };
}, 120_000);

afterAll(async () => {
  await Promise.all(Object.values(servers ?? {}).map((server) => server.stop()));
  await Promise.all(Object.values(services ?? {}).map((service) => service.close()));
});

/** A server's forwards of `kind` that ended so (or, `misrouted`, were asked again), in an exposition it gave. */
const forwards = (exposition: string, kind: string, result: string) =>
  valueOf(exposition, 'meridian_peer_forwards_total', { kind, result }) ?? 0;

describe("as the canary's pod becomes available, before the canary Service moves to it", () => {
  it("a file of B asked of A is answered once the Service reaches B, and A's next questions reach B", async () => {
    // B's pod is already sent visitors by the release's Service, which selects every pod.
    const [script] = await scriptsAloneOf(servers.b, servers.a);
    const before = await scrape(servers.a);
    const asked = request(`${servers.a.url}${script}`);
    await new Promise((resolve) => setTimeout(resolve, 1000));
    services.canary.pointAt(portOf(servers.b));
    const own = await request(`${servers.b.url}${script}`);
    expect((await asked).status).toBe(200);
    expect((await asked).body).toBe(own.body);
    // A's own pod answered first (it lacks the file), and was asked again.
    expect(forwards(await scrape(servers.a), 'asset', 'misrouted')).toBeGreaterThan(forwards(before, 'asset', 'misrouted'));
    // The connections A opened while the Service led to A led nowhere else: new questions take new ones.
    const manifest = await request(`${servers.a.url}/builds/meta/${B.id}.json`);
    expect(manifest.status).toBe(200);
    expect(JSON.parse(manifest.body)).toMatchObject({ id: B.id });
  });
});

describe('two builds serving at once: a page of either build gets its files from either server', () => {
  it('builds/latest.json names the stable build and the canary on both; current.json each server’s own', async () => {
    await untilBothSay(A.id, B.id);
    expect(JSON.parse((await request(`${servers.a.url}/builds/current.json`)).body)).toMatchObject({ id: A.id });
    expect(JSON.parse((await request(`${servers.b.url}/builds/current.json`)).body)).toMatchObject({ id: B.id });
  });

  it.each([
    ['A', 'b'],
    ['B', 'a'],
  ] as const)('every script of a page of build %s is answered by the other server, as its own server answers it', async (page, other) => {
    const own = page === 'A' ? servers.a : servers.b;
    const scripts = await scriptsOf(own);
    expect(scripts.length).toBeGreaterThan(3);
    // At least one is this build's alone (the one holding its id): the other server has it only from a peer.
    expect(await scriptsAloneOf(own, servers[other])).not.toEqual([]);
    for (const script of scripts) {
      const [mine, theirs] = await Promise.all([request(`${own.url}${script}`), request(`${servers[other].url}${script}`)]);
      expect(theirs.status, script).toBe(200);
      expect(theirs.body, script).toBe(mine.body);
      expect(theirs.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    }
    // Compressed as the page's own server would: the brotli copy, with its tag.
    const [script] = scripts;
    const [mine, theirs] = await Promise.all(
      [own, servers[other]].map((server) => request(`${server.url}${script}`, { headers: { 'Accept-Encoding': 'br' } })),
    );
    expect(theirs?.headers['content-encoding']).toBe('br');
    expect(mine?.headers['content-encoding']).toBe('br');
    expect(theirs?.headers.etag).toBe(mine?.headers.etag);
  });

  it("answers each build's route manifest on either server", async () => {
    for (const build of [A, B]) {
      for (const server of Object.values(servers)) {
        const reply = await request(`${server.url}/builds/meta/${build.id}.json`);
        expect(reply.status, `${build.id} on ${server.url}`).toBe(200);
        expect(JSON.parse(reply.body)).toMatchObject({ id: build.id });
      }
    }
  });

  it('answers a router payload of the other build with its own deployment id, which makes Next load the page in full', async () => {
    // Next's client compares x-nextjs-deployment-id with its own and, when they differ, loads
    // the page in full (fetch-server-response.ts, doMpaNavigation) instead of using the payload.
    for (const [page, server, served] of [
      [A.id, servers.b, B.id],
      [B.id, servers.a, A.id],
    ] as const) {
      const reply = await request(`${server.url}/zh-CN?_rsc`, { headers: { RSC: '1', 'X-Deployment-Id': page } });
      expect(reply.status).toBe(200);
      expect(reply.headers['x-nextjs-deployment-id']).toBe(served);
    }
  });

  it('forwards once only, never a file of a build neither Service serves, and a file its build lacks is a miss at once', async () => {
    const [script] = await scriptsAloneOf(servers.a, servers.b);
    const before = await scrape(servers.b);
    const forwardedAgain = await request(`${servers.b.url}${script}`, { headers: { 'X-Meridian-Forwarded': '1' } });
    const nobodys = await request(`${servers.b.url}/_next/static/chunks/no-such-file.js?dpl=e2e-z`);
    const withoutId = await request(`${servers.b.url}${script?.split('?')[0]}`);
    const metaOfNobody = await request(`${servers.b.url}/builds/meta/e2e-z.json`);
    const lackedByA = await request(`${servers.b.url}/_next/static/chunks/no-such-file.js?dpl=${A.id}`);
    expect([forwardedAgain.status, nobodys.status, withoutId.status, metaOfNobody.status, lackedByA.status]).toEqual([
      404, 404, 404, 404, 404,
    ]);
    const after = await scrape(servers.b);
    // Only the file A lacks was sent on: A's answer, a miss from a pod of A, ends the forward.
    for (const [kind, result, sent] of [
      ['asset', 'missing', 1],
      ['asset', 'misrouted', 0],
      ['manifest', 'missing', 0],
    ] as const)
      expect(forwards(after, kind, result) - forwards(before, kind, result), `${kind} ${result}`).toBe(sent);
    expect(forwards(after, 'asset', 'served')).toBeGreaterThan(0);
  });
});

describe('a pod of A that stopped answering while the stable Service still sends it connections', () => {
  it('a file of A asked of B is asked again of another pod of A after a second without an answer, and served', async () => {
    // A second pod of A, frozen: its kernel still opens connections and nobody answers, as with
    // a pod that left while kube-proxy's rules, seconds late on a busy node, still lead to it.
    const frozen = await startServer(serviceEnv, { entry: A.entry });
    frozen.kill('SIGSTOP');
    try {
      const [script] = await scriptsAloneOf(servers.a, servers.b);
      const before = await scrape(servers.b);
      services.stable.pointAt(portOf(frozen));
      const asked = request(`${servers.b.url}${script}`);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      services.stable.pointAt(portOf(servers.a));
      const [answer, own] = await Promise.all([asked, request(`${servers.a.url}${script}`)]);
      expect(answer.status).toBe(200);
      expect(answer.body).toBe(own.body);
      expect(forwards(await scrape(servers.b), 'asset', 'served')).toBe(forwards(before, 'asset', 'served') + 1);
    } finally {
      frozen.kill('SIGCONT');
      await frozen.stop();
    }
  });
});

describe('builds/latest.json follows the Services as Argo Rollouts moves them', () => {
  it('after a promotion (both Services on B), names B alone on B; a pod of A still draining calls itself the canary', async () => {
    services.stable.pointAt(portOf(servers.b));
    await waitFor(
      'B to see the promotion',
      async () => {
        expect(await latestOf(servers.b)).toMatchObject({ id: B.id });
        expect(await latestOf(servers.b)).not.toHaveProperty('canary');
      },
      { timeoutMs: 15_000 },
    );
    await waitFor('A to see the promotion', async () => expect(await latestOf(servers.a)).toMatchObject({ id: B.id, canary: A.id }), {
      timeoutMs: 15_000,
    });
  });

  it('after an abort (both Services on A), names A alone on A, so tabs of B move back; a file of B is then a miss at once', async () => {
    services.stable.pointAt(portOf(servers.a));
    services.canary.pointAt(portOf(servers.a));
    await waitFor(
      'A to see the abort',
      async () => {
        const latest = await latestOf(servers.a);
        expect(latest).toMatchObject({ id: A.id });
        expect(latest).not.toHaveProperty('canary');
      },
      { timeoutMs: 15_000 },
    );
    // A saw B live and no longer does: no pod is asked for B's files (nor for 5 s).
    const before = await scrape(servers.a);
    const [script] = await scriptsAloneOf(servers.b, servers.a);
    expect((await request(`${servers.a.url}${script}`)).status).toBe(404);
    const after = await scrape(servers.a);
    for (const result of ['served', 'missing', 'misrouted', 'failed'])
      expect(forwards(after, 'asset', result), result).toBe(forwards(before, 'asset', result));
  });
});
