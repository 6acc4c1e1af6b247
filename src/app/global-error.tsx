'use client';

/**
 * The last resort, shown when the root layout itself fails: no translations,
 * no stylesheet, nothing that could fail again.
 */
export default function GlobalError() {
  return (
    <html lang="en">
      <body style={{ margin: 0, fontFamily: 'system-ui, sans-serif', color: '#1b1f2e' }}>
        <main style={{ minHeight: '100vh', display: 'grid', placeItems: 'center', padding: '2rem' }}>
          <div style={{ textAlign: 'center' }}>
            <p style={{ margin: 0, fontWeight: 700, color: '#2f3fd6' }}>500</p>
            <h1 style={{ margin: '0.5rem 0 1.5rem' }}>Internal Server Error</h1>
            {/* eslint-disable-next-line @next/next/no-html-link-for-pages -- after the root layout failed, recovery is a fresh document load, not a client navigation through the router that just failed. */}
            <a href="/" style={{ color: '#2f3fd6' }}>
              Back to home
            </a>
          </div>
        </main>
      </body>
    </html>
  );
}
