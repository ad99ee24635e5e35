#!/usr/bin/env node
import { main, reportError } from './main.js';

main(process.argv.slice(2)).then(
  (status) => {
    process.exitCode = status;
  },
  (error: unknown) => {
    reportError(error);
    process.exitCode = 1;
  },
);
