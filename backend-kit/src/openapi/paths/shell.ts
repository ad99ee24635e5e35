import type { RouteDescription } from '../route-description.js';

/** `routes/shell.ts`: command execution for the bridge's `execCommand` (`shell:execute`). */
export const shellRoutes: readonly RouteDescription[] = [
  {
    method: 'post',
    path: '/api/plugins/shell/{id}',
    operationId: 'runPluginShellCommand',
    tag: 'shell',
    summary: 'Run a shell command for a plugin',
    description:
      "Runs `command` with `/bin/sh -c` (PowerShell `-NoProfile -NonInteractive -Command` on Windows) in the user's home folder, " +
      'stdin closed, with an environment stripped of `LAUNCHER_*`, `PLUGINCTL_*`, `REGISTRY_*` and `PLUGIN_ROOT_*` variables and of any value ' +
      'containing the API token. Past `timeoutMs` the whole process tree is killed (SIGTERM, then SIGKILL after 500 ms) and the answer is ' +
      '400 `SHELL_TIMEOUT`. stdout and stderr keep at most 1 MiB each (`shellOutputLimitBytes`); longer output is cut and ends with `[output truncated after 1048576 bytes]` (the number is the limit).',
    body: {
      json: {
        type: 'object',
        required: ['command'],
        additionalProperties: false,
        properties: {
          command: { type: 'string', minLength: 1, maxLength: 65536, description: 'One command line; empty or blank gives 400 `SHELL_COMMAND_REQUIRED`.' },
          timeoutMs: { type: 'integer', minimum: 1000, maximum: 120000, default: 15000 },
        },
      },
    },
    responses: {
      200: {
        description: 'The command finished in time (whatever its exit code).',
        content: {
          'application/json': {
            schema: {
              type: 'object',
              required: ['exitCode', 'stdout', 'stderr'],
              additionalProperties: false,
              properties: {
                exitCode: { type: 'integer', description: '`128 + n` when signal `n` ended the shell.' },
                stdout: { type: 'string' },
                stderr: { type: 'string' },
              },
            },
          },
        },
      },
    },
    errors: ['SHELL_COMMAND_REQUIRED', 'SHELL_TIMEOUT', 'PLUGIN_NOT_FOUND'],
  },
];
