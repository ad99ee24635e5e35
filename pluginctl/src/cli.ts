#!/usr/bin/env node
import { USAGE_ERROR_CODES } from './cli-error.js';
import { main, reportError } from './main.js';

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    reportError(error);
    // Decisions 10: 2 for bad usage, 1 for a failed check.
    const code = (error as { code?: unknown }).code;
    process.exitCode = typeof code === 'string' && USAGE_ERROR_CODES.has(code) ? 2 : 1;
  },
);
