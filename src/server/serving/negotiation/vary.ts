import type { ServerResponse } from 'node:http';

function mergeVary(current: string | number | string[] | undefined, tokens: readonly string[]): string {
  const existing = (Array.isArray(current) ? current.join(',') : String(current ?? ''))
    .split(',')
    .map((token) => token.trim())
    .filter(Boolean);
  const lower = new Set(existing.map((token) => token.toLowerCase()));
  return [...existing, ...tokens.filter((token) => !lower.has(token.toLowerCase()))].join(', ');
}

/**
 * Adds `tokens` to the response's Vary header when its head is written. Next
 * replaces Vary on prerendered pages, so setting it beforehand is not enough.
 */
export function varyOn(res: ServerResponse, tokens: readonly string[]): void {
  const writeHead = res.writeHead;
  res.writeHead = function writeHeadWithVary(this: ServerResponse, ...args: unknown[]) {
    const headers = args.find((arg): arg is Record<string, unknown> => typeof arg === 'object' && arg !== null && !Array.isArray(arg));
    const varyKey = headers && Object.keys(headers).find((key) => key.toLowerCase() === 'vary');
    if (headers && varyKey) {
      headers[varyKey] = mergeVary(headers[varyKey] as string, tokens);
    } else {
      this.setHeader('Vary', mergeVary(this.getHeader('vary'), tokens));
    }
    return (writeHead as (...rest: unknown[]) => ServerResponse).apply(this, args);
  } as ServerResponse['writeHead'];
}
