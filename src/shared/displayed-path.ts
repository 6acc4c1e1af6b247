const MAX_SHOWN_PATH_LENGTH = 200;

/**
 * Characters never shown as they are: controls (NUL, C1), format characters
 * (the bidi overrides and isolates, such as U+202E, which would reorder the
 * text around them), line and paragraph separators, surrogates left alone,
 * private-use and unassigned code points.
 */
const UNSAFE = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}\p{Cs}\p{Co}\p{Cn}]/gu;

/** A character as the escapes of its UTF-8 bytes (`%00`, `%E2%80%AE`); a lone surrogate as U+FFFD's. */
function escaped(char: string): string {
  try {
    return encodeURIComponent(char);
  } catch {
    return '%EF%BF%BD';
  }
}

/**
 * The requested path as a visitor would read it: decoded when possible, any
 * character that could hide or reorder text escaped again, and cut to 200
 * characters.
 */
export function displayedPath(requested: string): string {
  let readable = requested;
  try {
    readable = decodeURIComponent(requested);
  } catch {
    // Malformed percent-encoding: show it as it was sent.
  }
  readable = readable.replace(UNSAFE, escaped);
  return readable.length > MAX_SHOWN_PATH_LENGTH ? `${readable.slice(0, MAX_SHOWN_PATH_LENGTH)}…` : readable;
}
