import type { ServerResponse } from 'node:http';

/** A response's headers as a flat list of names and values, the form `writeHead` takes in one go. */
export type HeaderList = readonly string[];

/** Sets a header list one by one, for answers that add their own headers as they go. */
export function setHeaderList(res: ServerResponse, headers: HeaderList): void {
  for (let i = 0; i < headers.length; i += 2) res.setHeader(headers[i] as string, headers[i + 1] as string);
}
