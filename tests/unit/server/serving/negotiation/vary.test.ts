import { createServer, type Server } from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { varyOn } from '@/server/serving/negotiation/vary';

let server: Server | undefined;

afterEach(() => server?.close());

async function varyOf(respond: (res: import('node:http').ServerResponse) => void): Promise<string | null> {
  server = createServer((_req, res) => {
    varyOn(res, ['Cookie', 'Accept-Language']);
    respond(res);
  });
  await new Promise<void>((resolve) => server?.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return (await fetch(`http://127.0.0.1:${port}/`)).headers.get('vary');
}

describe('varyOn', () => {
  it('adds its tokens when nothing set Vary', async () => {
    expect(await varyOf((res) => res.end('x'))).toBe('Cookie, Accept-Language');
  });

  it('keeps a Vary set later with setHeader, and adds to it', async () => {
    expect(await varyOf((res) => res.setHeader('Vary', 'rsc, Accept-Encoding') && res.end())).toBe(
      'rsc, Accept-Encoding, Cookie, Accept-Language',
    );
  });

  it('merges into headers given to writeHead, without duplicates', async () => {
    expect(await varyOf((res) => res.writeHead(200, { vary: 'accept-language, rsc' }).end())).toBe('accept-language, rsc, Cookie');
  });
});
