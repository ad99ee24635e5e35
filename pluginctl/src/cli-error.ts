/**
 * An error the CLI prints as `CODE: message` before exiting with status 2 when its code is in
 * {@link USAGE_ERROR_CODES}, else 1.
 */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}

/**
 * Codes that mean bad usage, which exit with status 2 (decisions section 10); every other code is a
 * failed check (1). `INVALID_MOCK`: the `dev --mock` file has an unknown key or a value of the
 * wrong shape, which is input the user wrote, like a bad option.
 */
export const USAGE_ERROR_CODES: ReadonlySet<string> = new Set(['INVALID_ARGUMENT', 'UNKNOWN_COMMAND', 'INVALID_MOCK']);
