import { GenericContainer, getContainerRuntimeClient, Wait, type ContainerRuntimeClient, type StartedTestContainer } from 'testcontainers';

type ContainerInspectInfo = Awaited<ReturnType<ContainerRuntimeClient['container']['inspect']>>;

export const PUBLIC_PORT = 3000;
export const METRICS_PORT = 9464;

/** The run-time mounts docs/operations.md#docker documents for a read-only root file system. */
export const WRITABLE_MOUNTS = { '/tmp': 'rw', '/app/.next/cache': 'rw,uid=10001,gid=10001' };

/** GenericContainer with what testcontainers has no method for: a read-only root file system. */
class ReadOnlyContainer extends GenericContainer {
  withReadOnlyRootFilesystem(): this {
    this.hostConfig.ReadonlyRootfs = true;
    return this;
  }
}

export interface RunningMeridian {
  container: StartedTestContainer;
  url: string;
  metricsUrl: string;
  /** Everything the container printed so far. */
  output(): string;
  /** Everything the container printed, once it has exited. */
  finalOutput(): Promise<string>;
  inspect(): Promise<ContainerInspectInfo>;
  remove(): Promise<void>;
}

async function inspect(id: string): Promise<ContainerInspectInfo> {
  const client = await getContainerRuntimeClient();
  return client.container.inspect(client.container.getById(id));
}

/**
 * Runs `image` as production does (read-only root, tmpfs for /tmp and Next's
 * cache) and waits until Docker reports its HEALTHCHECK healthy.
 */
export async function startMeridian(image: string, env: Record<string, string> = {}): Promise<RunningMeridian> {
  let output = '';
  let ended: Promise<void> | undefined;
  const container = await new ReadOnlyContainer(image)
    .withReadOnlyRootFilesystem()
    .withTmpFs(WRITABLE_MOUNTS)
    .withEnvironment(env)
    .withExposedPorts(PUBLIC_PORT, METRICS_PORT)
    .withLogConsumer((stream) => {
      stream.on('data', (chunk: Buffer | string) => (output += chunk.toString()));
      // The followed log ends when the container exits.
      ended = new Promise((resolve) => stream.on('end', resolve));
    })
    .withWaitStrategy(Wait.forHealthCheck())
    .withStartupTimeout(90_000)
    .start();
  const host = container.getHost();
  return {
    container,
    url: `http://${host}:${container.getMappedPort(PUBLIC_PORT)}`,
    metricsUrl: `http://${host}:${container.getMappedPort(METRICS_PORT)}`,
    output: () => output,
    finalOutput: async () => {
      await ended;
      return output;
    },
    inspect: () => inspect(container.getId()),
    async remove() {
      const client = await getContainerRuntimeClient();
      await client.container
        .getById(container.getId())
        .remove({ force: true })
        .catch(() => {});
    },
  };
}

async function text(stream: NodeJS.ReadableStream): Promise<string> {
  let all = '';
  for await (const chunk of stream) all += chunk.toString();
  return all;
}

/**
 * Runs `image` with `env` until it exits by itself, having printed `line`;
 * resolves with its exit code and everything it printed.
 */
export async function runUntilExit(
  image: string,
  env: Record<string, string>,
  line: RegExp,
): Promise<{ exitCode: number; output: string }> {
  const container = await new GenericContainer(image)
    .withEnvironment(env)
    .withWaitStrategy(Wait.forLogMessage(line))
    .withStartupTimeout(60_000)
    .start();
  const client = await getContainerRuntimeClient();
  const { StatusCode } = (await client.container.getById(container.getId()).wait()) as { StatusCode: number };
  // Followed, the log of an exited container ends after its last line.
  const output = await text(await container.logs());
  await container.stop({ remove: true });
  return { exitCode: StatusCode, output };
}
