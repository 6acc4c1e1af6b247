const MAX_SHOWN_PATH_LENGTH = 200;

/** The requested path as a visitor would read it: decoded when possible, and cut to 200 characters. */
export function displayedPath(requested: string): string {
  let readable = requested;
  try {
    readable = decodeURIComponent(requested);
  } catch {
    // Malformed percent-encoding: show it as it was sent.
  }
  return readable.length > MAX_SHOWN_PATH_LENGTH ? `${readable.slice(0, MAX_SHOWN_PATH_LENGTH)}…` : readable;
}
