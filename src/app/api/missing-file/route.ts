export const dynamic = 'force-static';

/** The answer for any file the site does not have: a short plain-text 404. */
export function GET() {
  return new Response('Not Found\n', {
    status: 404,
    headers: { 'Content-Type': 'text/plain; charset=utf-8', 'Cache-Control': 'no-store' },
  });
}
