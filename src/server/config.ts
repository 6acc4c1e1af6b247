import { z } from 'zod';

/**
 * Every setting of the server process, read from the environment once at
 * start-up and validated; nothing else reads `process.env`.
 */
const schema = z.object({
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOSTNAME: z.string().min(1).default('0.0.0.0'),
});

export type ServerConfig = Readonly<{
  port: number;
  hostname: string;
}>;

export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function readConfig(env: Record<string, string | undefined>): ServerConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const variable = String(issue?.path[0] ?? 'environment');
    throw new ConfigError(`config: ${variable}=${JSON.stringify(env[variable] ?? '')} is invalid: ${issue?.message}`);
  }
  return Object.freeze({ port: parsed.data.PORT, hostname: parsed.data.HOSTNAME });
}
