// Which build answered a request, read from what the build itself wrote.

const HTML_BUILD_ID = /<html[^>]* data-dpl-id="([^"]+)"/;

/**
 * The build id on a page's root element (Next's deploymentId), or 'unknown'.
 * @param {string} html
 */
export function buildIdOfPage(html) {
  return HTML_BUILD_ID.exec(html)?.[1] ?? 'unknown';
}

/**
 * The build that answered: `id` of builds/latest.json, or the page's `data-dpl-id`; 'unknown' otherwise.
 * @param {string} contentType
 * @param {string} body
 */
export function buildIdOfAnswer(contentType, body) {
  if (!contentType.startsWith('application/json')) return buildIdOfPage(body);
  try {
    return String(JSON.parse(body).id);
  } catch {
    return 'unknown';
  }
}
