import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { LaunchLine, LaunchRecord } from './launch-records.js';
import type { LaunchRequest } from './launch-request.js';
import type { LibraryInstance } from './library-instance.js';

/** How the simulated game behaves. */
export interface GameSessionOptions {
  /** How long the simulated game "runs" before it exits, in milliseconds. */
  readonly playMs: number;
  /** The clock; default `Date.now`. */
  readonly now?: () => number;
}

/** The folders whose files the log counts, with what it calls one of them. */
const CONTENT_FOLDERS = [
  ['mods', 'mod'],
  ['resourcepacks', 'resource pack'],
  ['shaderpacks', 'shader pack'],
  ['datapacks', 'data pack'],
] as const;

async function filesIn(folder: string): Promise<string[]> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => entry.name)
    .sort();
}

/** What the instance's folders hold, one phrase per kind: "2 mods (a.jar, b.jar)". */
async function contentLine(gameDir: string): Promise<string> {
  const parts: string[] = [];
  for (const [folder, label] of CONTENT_FOLDERS) {
    const files = await filesIn(join(gameDir, folder));
    if (files.length > 0) parts.push(`${files.length} ${label}${files.length === 1 ? '' : 's'} (${files.join(', ')})`);
  }
  return parts.length > 0 ? `Content: ${parts.join('; ')}` : 'Content: none (no mods or packs installed)';
}

function gameName(instance: LibraryInstance): string {
  const loader = instance.loader ? `, ${instance.loader} ${instance.loaderVersion ?? ''}`.trimEnd() : '';
  return `Minecraft ${instance.gameVersion ?? '(version not set)'}${loader}`;
}

/** The command line the launcher would run, from the arguments after the hooks. */
function commandLine(instance: LibraryInstance, request: LaunchRequest): string {
  const { memory, javaArgs = [], gameArgs = [] } = request.arguments;
  return [
    'java',
    `-Xmx${memory ?? instance.maxMemory}M`,
    ...javaArgs,
    'net.minecraft.client.main.Main',
    '--version',
    instance.gameVersion ?? 'unknown',
    '--gameDir',
    instance.gameDir,
    ...gameArgs,
  ].join(' ');
}

/**
 * Runs a launch of the demo. The demo has no game to start: the "game process" is simulated. It
 * logs what a launcher would (the arguments after the plugins' hooks, the command line, what the
 * instance holds), "runs" for `playMs` and exits with code 0. A launch a hook prevented is logged
 * with the hook's reason, and nothing runs.
 */
export async function runGameSession(instance: LibraryInstance, request: LaunchRequest, options: GameSessionOptions): Promise<LaunchRecord> {
  const now = options.now ?? Date.now;
  const lines: LaunchLine[] = [];
  const log = (text: string): void => {
    lines.push({ at: new Date(now()).toISOString(), text });
  };
  const startedAt = new Date(now()).toISOString();
  const base = { instanceId: instance.id, instanceName: instance.name, startedAt, arguments: request.arguments };
  if (request.prevented) {
    log(`Launch of ${instance.name} requested (${gameName(instance)})`);
    log(`Arguments requested: ${JSON.stringify(request.arguments)}`);
    log(`Launch prevented by a plugin hook: ${request.prevented.reason ?? 'no reason given'}`);
    return {
      ...base,
      outcome: 'prevented',
      endedAt: new Date(now()).toISOString(),
      exitCode: null,
      ...(request.prevented.reason !== undefined ? { preventedReason: request.prevented.reason } : {}),
      lines,
    };
  }
  log(`Launching ${instance.name} (${gameName(instance)})`);
  log(`Arguments after plugin hooks: ${JSON.stringify(request.arguments)}`);
  log(`Command: ${commandLine(instance, request)}`);
  log(await contentLine(instance.gameDir));
  log('Game process started (simulated: the demo launcher runs no game)');
  const started = now();
  await delay(options.playMs);
  log(`Game process stopped: exit code 0 after ${((now() - started) / 1000).toFixed(1)} s`);
  return { ...base, outcome: 'exited', endedAt: new Date(now()).toISOString(), exitCode: 0, lines };
}
