/** An error the CLI prints as `CODE: message` before exiting with status 1. */
export class CliError extends Error {
  override readonly name = 'CliError';
  constructor(
    readonly code: string,
    message: string,
  ) {
    super(message);
  }
}
