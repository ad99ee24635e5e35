import { PluginHostError } from '@plughost/host-sdk/core';

/**
 * The arguments of the `launchGame` hookable method, as the launcher page passes them to the
 * plugins' hooks and then (changed or not) to the launch. Hooks may add fields of their own;
 * they are kept and shown in the log.
 */
export type LaunchArguments = Readonly<Record<string, unknown>> & {
  /** Memory for the game in MiB. */
  readonly memory?: number;
  /** Extra options for the Java virtual machine, such as `-XX:+UseG1GC`. */
  readonly javaArgs?: readonly string[];
  /** Extra options for the game, such as `--fullscreen`. */
  readonly gameArgs?: readonly string[];
};

/** A checked `POST /launcher/instances/<id>/launch` body. */
export interface LaunchRequest {
  /** The arguments after the hooks ran (the requested ones when a hook prevented the launch). */
  readonly arguments: LaunchArguments;
  /** Present when a plugin's hook prevented the launch: the log records it instead of starting the game. */
  readonly prevented?: { readonly reason?: string };
}

const MEMORY = { minimum: 256, maximum: 1_048_576 } as const;
const MAXIMUM_OPTIONS = 64;
const MAXIMUM_OPTION_LENGTH = 512;
const MAXIMUM_REASON_LENGTH = 500;

function invalid(message: string, field: string): PluginHostError {
  return new PluginHostError('INVALID_ARGUMENT', message, { field });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function checkOptions(value: unknown, field: string): void {
  if (value === undefined) return;
  if (!Array.isArray(value) || value.length > MAXIMUM_OPTIONS || !value.every((item) => typeof item === 'string' && item.length <= MAXIMUM_OPTION_LENGTH)) {
    throw invalid(
      `"arguments.${field}" must be a list of at most ${MAXIMUM_OPTIONS} strings of at most ${MAXIMUM_OPTION_LENGTH} characters`,
      `arguments.${field}`,
    );
  }
}

/**
 * Checks a launch body: `{arguments, prevented?}`. `arguments.memory` is a whole number of MiB
 * (256 to 1048576), `javaArgs` and `gameArgs` lists of strings; other fields a hook added pass
 * through. `prevented.reason` is the text a hook left (at most 500 characters).
 *
 * @throws PluginHostError `INVALID_ARGUMENT` naming the field.
 */
export function parseLaunchRequest(body: Record<string, unknown>): LaunchRequest {
  for (const field of Object.keys(body)) if (field !== 'arguments' && field !== 'prevented') throw invalid(`Unknown field "${field}"`, field);
  const { arguments: args, prevented } = body;
  if (!isObject(args)) throw invalid('"arguments" must be an object (the launchGame arguments after the hooks)', 'arguments');
  const { memory } = args;
  if (memory !== undefined && (typeof memory !== 'number' || !Number.isInteger(memory) || memory < MEMORY.minimum || memory > MEMORY.maximum)) {
    throw invalid(`"arguments.memory" must be a whole number of MiB from ${MEMORY.minimum} to ${MEMORY.maximum}`, 'arguments.memory');
  }
  checkOptions(args.javaArgs, 'javaArgs');
  checkOptions(args.gameArgs, 'gameArgs');
  if (prevented === undefined) return { arguments: args };
  if (!isObject(prevented)) throw invalid('"prevented" must be an object', 'prevented');
  const { reason } = prevented;
  if (reason !== undefined && (typeof reason !== 'string' || reason.length > MAXIMUM_REASON_LENGTH)) {
    throw invalid(`"prevented.reason" must be a string of at most ${MAXIMUM_REASON_LENGTH} characters`, 'prevented.reason');
  }
  return { arguments: args, prevented: reason === undefined || reason.trim() === '' ? {} : { reason } };
}
