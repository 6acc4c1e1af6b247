import { existsSync, readFileSync } from 'node:fs';

const TABLE = '/proc/net/nf_conntrack';

/**
 * The kernel's tracked TCP connections from this machine to 127.0.0.1:`nodePort` that
 * were never translated to a pod: their answer is expected from 127.0.0.1:`nodePort`
 * itself. Such an entry outlives the refusal that made it (120 s in SYN_SENT), and a new
 * connection reusing its source port matches it and is refused too.
 */
export function untranslatedConnections(nodePort: number): string[] {
  if (!existsSync(TABLE)) throw new Error(`conntrack: ${TABLE} is missing (the kernel needs CONFIG_NF_CONNTRACK_PROCFS)`);
  const untranslated = new RegExp(
    String.raw`\btcp\b.*src=127\.0\.0\.1 dst=127\.0\.0\.1 sport=\d+ dport=${nodePort} .*src=127\.0\.0\.1 dst=127\.0\.0\.1 sport=${nodePort} `,
  );
  return readFileSync(TABLE, 'utf8')
    .split('\n')
    .filter((line) => untranslated.test(line));
}
