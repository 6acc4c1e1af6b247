import { readFileSync } from 'node:fs';
import { afterEach, describe, expect, it } from 'vitest';
import { eventually, logLine, request, scrape, valueOf, type Reply } from '../support/http';
import { jsonLines, startServer, type RunningServer } from '../support/server-process';

/** A path Next renders: a `$` takes the not-found page past its template (docs/architecture.md). */
const RENDERED = '/ja/nope$x';

const running: RunningServer[] = [];
const stopped = new Set<number>();

afterEach(async () => {
  for (const pid of stopped) signal(pid, 'SIGCONT');
  stopped.clear();
  await Promise.all(running.splice(0).map((server) => server.stop('SIGKILL')));
});

async function start(env: Record<string, string> = {}): Promise<RunningServer> {
  const server = await startServer(env);
  running.push(server);
  return server;
}

function signal(pid: number, name: NodeJS.Signals): void {
  try {
    process.kill(pid, name);
  } catch {
    // Already gone.
  }
}

/** A process's parent and niceness, from /proc. */
function statOf(pid: number): { parent: number; nice: number } {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return { parent: Number(fields[1]), nice: Number(fields[16]) };
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The renderer's pid, from the newest "Renderer listening" line after `after` of them. */
async function rendererPid(server: RunningServer, after = 0): Promise<number> {
  return eventually(() => {
    const lines = jsonLines(server).filter((line) => line.msg === 'Renderer listening');
    const line = lines[after];
    if (!line) throw new Error(`no renderer start #${after + 1} yet`);
    return line.pid as number;
  });
}

/** Stops the renderer's process (SIGSTOP): what it holds stays held until SIGCONT. */
function freeze(pid: number): void {
  stopped.add(pid);
  signal(pid, 'SIGSTOP');
}

function thaw(pid: number): void {
  stopped.delete(pid);
  signal(pid, 'SIGCONT');
}

/** A request whose answer is awaited later, and whether it has come. */
function pending(url: string): { reply: Promise<Reply>; answered: () => boolean } {
  let done = false;
  const reply = request(url).finally(() => (done = true));
  return { reply, answered: () => done };
}

async function metric(server: RunningServer, name: string, labels: Record<string, string> = {}): Promise<number | undefined> {
  return valueOf(await scrape(server), name, labels);
}

describe('the renderer: Next in a process of its own', () => {
  it("runs as a child of the serving process, at a lower priority, with V8's memory bounds, and renders what Next must", async () => {
    const server = await start();
    const pid = await rendererPid(server);
    expect(pid).not.toBe(server.pid);
    expect(statOf(pid)).toEqual({ parent: server.pid, nice: 10 });
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    // The bounds docs/architecture.md gives: a 64 MiB old space, 1 MiB semi-spaces, no optimising compilers.
    expect(args.slice(1)).toEqual([
      '--max-old-space-size=64',
      '--max-semi-space-size=1',
      '--no-maglev',
      '--no-turbofan',
      expect.stringMatching(/meridian-renderer\.cjs$/),
    ]);

    const reply = await request(`${server.url}${RENDERED}`);
    expect(reply.status).toBe(404);
    expect(reply.headers['content-type']).toMatch(/^text\/html/);
    expect(reply.body).toContain('nope$x');
  });

  it('renders what the public port accepts, its longest targets included (the hand-over adds to the head)', async () => {
    const server = await start();
    const path = `/ja/${'x'.repeat(5000)}`;
    const reply = await request(`${server.url}${path}`);
    expect(reply.status).toBe(404);
    expect(reply.body).toContain(`${'x'.repeat(190)}`);
  });

  it('holds no page: with the renderer stopped, a render waits while pages, 404s and probes answer', async () => {
    const server = await start();
    const pid = await rendererPid(server);
    freeze(pid);
    const render = pending(`${server.url}${RENDERED}`);
    await eventually(async () => expect(await metric(server, 'meridian_renders_in_flight')).toBe(1));

    expect((await request(`${server.url}/ja`)).status).toBe(200);
    expect((await request(`${server.url}/zh-CN/missing`)).status).toBe(404);
    expect((await request(`${server.url}/readyz`)).status).toBe(200);
    // Had the serving process rendered it, the answer would be here by now.
    expect(render.answered()).toBe(false);

    thaw(pid);
    expect((await render.reply).status).toBe(404);
    await eventually(async () => expect(await metric(server, 'meridian_renders_in_flight')).toBe(0));
  });

  it('sheds beyond RENDER_CONCURRENCY and RENDER_QUEUE: 503 with Retry-After, counted, pages untouched', async () => {
    const server = await start({ RENDER_CONCURRENCY: '1', RENDER_QUEUE: '1' });
    const pid = await rendererPid(server);
    freeze(pid);
    const first = pending(`${server.url}${RENDERED}1`);
    await eventually(async () => expect(await metric(server, 'meridian_renders_in_flight')).toBe(1));
    const second = pending(`${server.url}${RENDERED}2`);
    await eventually(async () => expect(await metric(server, 'meridian_renders_queued')).toBe(1));

    const shed = await request(`${server.url}${RENDERED}3`);
    expect(shed.status).toBe(503);
    expect(shed.headers['retry-after']).toBe('1');
    expect(shed.headers['cache-control']).toBe('no-store');
    expect(await metric(server, 'meridian_render_shed_total', { reason: 'queue_full' })).toBe(1);
    expect((await request(`${server.url}/ja`)).status).toBe(200);

    thaw(pid);
    expect((await first.reply).status).toBe(404);
    expect((await second.reply).status).toBe(404);
    expect((await request(`${server.url}${RENDERED}4`)).status).toBe(404);
    expect(await metric(server, 'meridian_render_shed_total', { reason: 'queue_full' })).toBe(1);
  });

  it('gives up the place of a visitor who leaves while queued', async () => {
    const server = await start({ RENDER_CONCURRENCY: '1', RENDER_QUEUE: '1' });
    const pid = await rendererPid(server);
    freeze(pid);
    const first = pending(`${server.url}${RENDERED}1`);
    await eventually(async () => expect(await metric(server, 'meridian_renders_in_flight')).toBe(1));
    const controller = new AbortController();
    const leaving = fetch(`${server.url}${RENDERED}2`, { signal: controller.signal }).catch(() => 'left');
    await eventually(async () => expect(await metric(server, 'meridian_renders_queued')).toBe(1));
    controller.abort();
    expect(await leaving).toBe('left');
    await eventually(async () => expect(await metric(server, 'meridian_renders_queued')).toBe(0));
    thaw(pid);
    expect((await first.reply).status).toBe(404);
  });

  it('restarts a renderer that dies: its render in flight gets 503 with Retry-After, pages and readiness stay', async () => {
    const server = await start();
    const pid = await rendererPid(server);
    freeze(pid);
    const render = pending(`${server.url}${RENDERED}`);
    await eventually(async () => expect(await metric(server, 'meridian_renders_in_flight')).toBe(1));
    signal(pid, 'SIGKILL');
    stopped.delete(pid);

    const cut = await render.reply;
    expect(cut.status).toBe(503);
    expect(cut.headers['retry-after']).toBe('1');
    expect((await request(`${server.url}/ja`)).status).toBe(200);
    expect((await request(`${server.url}/readyz`)).status).toBe(200);
    expect(await logLine(server, (line) => line.msg?.toString().startsWith('Renderer exited') === true)).toMatchObject({
      level: 50,
      signal: 'SIGKILL',
    });

    const next = await rendererPid(server, 1);
    expect(next).not.toBe(pid);
    expect(statOf(next)).toEqual({ parent: server.pid, nice: 10 });
    expect(alive(pid)).toBe(false);
    expect((await request(`${server.url}${RENDERED}`)).status).toBe(404);
    const text = await scrape(server);
    expect(valueOf(text, 'meridian_renderer_restarts_total')).toBe(1);
    expect(valueOf(text, 'meridian_renderer_up')).toBe(1);
    expect(valueOf(text, 'meridian_render_shed_total', { reason: 'renderer_down' })).toBe(1);
  });

  it('keeps rendering when a terminal sends the process group SIGINT: the serving process decides when it stops', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '30000' });
    const pid = await rendererPid(server);
    signal(pid, 'SIGINT');
    expect((await request(`${server.url}${RENDERED}`)).status).toBe(404);
    expect(alive(pid)).toBe(true);
  });

  it('merges its metrics: renders counted per route, the renderer up, its CPU time and memory', async () => {
    const server = await start();
    await rendererPid(server);
    expect((await request(`${server.url}${RENDERED}`)).status).toBe(404);
    await eventually(async () => {
      const text = await scrape(server);
      expect(valueOf(text, 'http_server_request_duration_seconds_count', { method: 'GET', route: 'not_found', status_code: '404' })).toBe(
        1,
      );
      expect(valueOf(text, 'meridian_renderer_up')).toBe(1);
      expect(valueOf(text, 'meridian_renderer_cpu_seconds_total')).toBeGreaterThan(0);
      expect(valueOf(text, 'meridian_renderer_resident_memory_bytes')).toBeGreaterThan(10 * 1024 * 1024);
    });
  });

  it('logs whole JSON lines, its own marked process: renderer, with the service and build of the serving process', async () => {
    const server = await start({ LOG_LEVEL: 'debug' });
    await rendererPid(server);
    expect((await request(`${server.url}${RENDERED}`)).status).toBe(404);
    await logLine(server, (line) => line.process === 'renderer');
    const [served] = jsonLines(server);
    for (const line of jsonLines(server).filter((entry) => entry.process === 'renderer')) {
      expect(line).toMatchObject({ service: served?.service, build_id: served?.build_id });
    }
  });

  it('on SIGTERM: a render in flight is answered, then the renderer stops, and the server exits 0', async () => {
    const server = await start({ SHUTDOWN_DELAY_MS: '0', SHUTDOWN_TIMEOUT_MS: '20000' });
    const pid = await rendererPid(server);
    freeze(pid);
    const render = pending(`${server.url}${RENDERED}`);
    await eventually(async () => expect(await metric(server, 'meridian_renders_in_flight')).toBe(1));
    server.kill('SIGTERM');
    await logLine(server, (line) => line.msg === 'Shutting down: draining');
    thaw(pid);

    expect((await render.reply).status).toBe(404);
    expect(await server.exited).toBe(0);
    expect(await logLine(server, (line) => line.msg === 'Shutdown complete')).toMatchObject({ drained: true });
    await eventually(() => expect(alive(pid)).toBe(false));
  });
});
