import { PluginHostError } from '@plughost/host-sdk/core';
import { SHELL_LIMITS } from './shell-limits.js';

/** A validated shell request. */
export interface ShellRequest {
  readonly command: string;
  readonly timeoutMs: number;
}

const FIELDS = new Set(['command', 'timeoutMs']);

/**
 * Checks `{command, timeoutMs?}`: a command that is empty or only whitespace is 400
 * `SHELL_COMMAND_REQUIRED`; a `timeoutMs` that is not an integer from 1000 to 120000, an unknown
 * field or a command with a NUL character (which no shell can receive) is 400 `INVALID_ARGUMENT`.
 */
export function parseShellRequest(body: Readonly<Record<string, unknown>>): ShellRequest {
  const unknown = Object.keys(body).find((field) => !FIELDS.has(field));
  if (unknown !== undefined) throw new PluginHostError('INVALID_ARGUMENT', `Unknown field "${unknown}"; send {command, timeoutMs?}`, { field: unknown });
  const command = body.command;
  if (command === undefined || command === null || (typeof command === 'string' && command.trim() === '')) {
    throw new PluginHostError('SHELL_COMMAND_REQUIRED', 'The command is empty');
  }
  if (typeof command !== 'string') throw new PluginHostError('INVALID_ARGUMENT', '"command" must be a string', { field: 'command' });
  if (command.includes('\0')) throw new PluginHostError('INVALID_ARGUMENT', '"command" must not contain NUL characters', { field: 'command' });
  if (command.length > SHELL_LIMITS.maximumCommandLength) {
    throw new PluginHostError('INVALID_ARGUMENT', `"command" is longer than ${SHELL_LIMITS.maximumCommandLength} characters`, {
      field: 'command',
      limit: SHELL_LIMITS.maximumCommandLength,
    });
  }
  const timeout = body.timeoutMs;
  let timeoutMs: number = SHELL_LIMITS.defaultTimeoutMs;
  if (timeout !== undefined && timeout !== null) {
    if (typeof timeout !== 'number' || !Number.isInteger(timeout) || timeout < SHELL_LIMITS.minimumTimeoutMs || timeout > SHELL_LIMITS.maximumTimeoutMs) {
      throw new PluginHostError(
        'INVALID_ARGUMENT',
        `"timeoutMs" must be an integer from ${SHELL_LIMITS.minimumTimeoutMs} to ${SHELL_LIMITS.maximumTimeoutMs}`,
        { field: 'timeoutMs' },
      );
    }
    timeoutMs = timeout;
  }
  return { command, timeoutMs };
}
