// The one way a command of scripts/ reads its arguments: Node's parseArgs, strict, with
// `--help` (`-h`) printing its usage, and a flag it does not know refused in one line with
// the usage and exit 2.

/** The `--help` every command takes: put it among the options given to parseArgs. */
export const HELP = /** @type {const} */ ({ type: 'boolean', short: 'h' });

/**
 * Runs `parse` (a parseArgs call whose options include HELP); prints the usage and exits 0 on
 * `--help`, refuses a parse error with the usage and exit 2, else returns what it parsed.
 * @template {{ values: { help?: boolean } }} Parsed
 * @param {string} name the command's name, before its messages (`gameday: ...`)
 * @param {string} usage
 * @param {() => Parsed} parse
 * @returns {Parsed}
 */
export function parseCommand(name, usage, parse) {
  /** @type {Parsed} */
  let parsed;
  try {
    parsed = parse();
  } catch (error) {
    return usageError(name, usage, error instanceof Error ? error.message : String(error));
  }
  if (parsed.values.help) {
    console.log(usage);
    process.exit(0);
  }
  return parsed;
}

/**
 * Refuses the command line in one line, with the usage after it; exits 2.
 * @param {string} name @param {string} usage @param {string} message
 * @returns {never}
 */
export function usageError(name, usage, message) {
  console.error(`${name}: ${message}\n\n${usage}`);
  process.exit(2);
}
