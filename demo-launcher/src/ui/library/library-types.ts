/**
 * The library's shapes as the launcher page reads them from the demo's backend (`GET
 * /api/instance`, the launch routes); the server's OpenAPI description is their contract.
 */

/** An instance of the game library. */
export interface LibraryInstance {
  readonly id: string;
  readonly name: string;
  readonly gameDir: string;
  /** Memory for the game in MiB. */
  readonly maxMemory: number;
  readonly gameVersion?: string;
  readonly loader?: string;
  readonly loaderVersion?: string;
  /** One of the demo's instance pictures (`grass`, `pickaxe`, `sword`, `island`, `chest`). */
  readonly icon: string;
  /** ISO 8601; absent when never played. */
  readonly lastPlayedAt?: string;
}

/** One line of a launch log. */
export interface LaunchLine {
  readonly at: string;
  readonly text: string;
}

/** The log of a launch. */
export interface LaunchRecord {
  readonly instanceId: string;
  readonly instanceName: string;
  readonly outcome: 'exited' | 'prevented';
  readonly startedAt: string;
  readonly endedAt: string;
  readonly exitCode: number | null;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly preventedReason?: string;
  readonly lines: readonly LaunchLine[];
}

/** The `launchGame` arguments the launcher passes to the hooks; hooks may change them or add fields. */
export interface LaunchArguments {
  readonly instanceId: string;
  /** The instance's name (the field the demo's launch flow has always passed). */
  readonly instance: string;
  /** Memory for the game in MiB. */
  readonly memory: number;
  readonly gameVersion?: string;
  readonly loader?: string;
  readonly javaArgs: readonly string[];
  readonly gameArgs: readonly string[];
}
