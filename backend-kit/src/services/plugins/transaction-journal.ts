import { randomBytes } from 'node:crypto';
import { readdir } from 'node:fs/promises';
import { rm } from '../filesystem/changes.js';
import { join } from 'node:path';
import { isValidPluginId } from '@plughost/host-sdk/core';
import type { DataPaths } from '../../config/data-paths.js';
import { readJsonFile, syncFolder, writeJsonAtomic } from '../atomic-file.js';
import { snapshotOwner } from './plugin-folders.js';
import { readRecord, type PluginRecord } from './plugin-records.js';

/**
 * A folder a transaction moves: a folder of `plugins/` (the installed plugin's own is the
 * transaction's `current` and never appears here; these are snapshots), or a fixed name inside
 * the transaction's work folder under `backend/tmp/`.
 */
export type TransactionLocation = { readonly in: 'plugins'; readonly name: string } | { readonly in: 'transaction'; readonly name: 'incoming' | 'replaced' };

/**
 * What an install or rollback is about to do, written before its first rename and removed when
 * it is complete (the commit point). A journal found at start means the transaction did not
 * complete: recovery undoes it. Only names are stored, never paths, so a moved data directory
 * still recovers and a tampered journal cannot point recovery outside the data directory.
 */
export interface TransactionJournal {
  readonly version: 1;
  readonly operation: 'install' | 'rollback';
  readonly pluginId: string;
  /** The work folder's name under `backend/tmp/` (`plugin-tx-<hex>`). */
  readonly transaction: string;
  /** Where the version that goes into `plugins/<id>/` waits. */
  readonly incoming: TransactionLocation;
  /** Where the current `plugins/<id>/` goes; `null` for a first install. */
  readonly outgoing: TransactionLocation | null;
  /** Older snapshot folders moved into `<transaction>/retired/` (only the newest is kept). */
  readonly retired: readonly string[];
  /** The plugin's record before the transaction, restored by an undo. */
  readonly previousRecord: PluginRecord | null;
}

/** Prefix of transaction work folders under `backend/tmp/`. */
export const TRANSACTION_PREFIX = 'plugin-tx-';
const JOURNAL_FOLDER = 'plugin-transactions';
const TRANSACTION_NAME = /^plugin-tx-[0-9a-f]{16}$/;

/** A fresh transaction name. */
export function newTransactionName(): string {
  return `${TRANSACTION_PREFIX}${randomBytes(8).toString('hex')}`;
}

/** `backend/plugin-transactions/`: one journal per plugin id, as one lock per id serializes them. */
export function journalFolder(paths: DataPaths): string {
  return join(paths.backend, JOURNAL_FOLDER);
}

function journalFile(paths: DataPaths, pluginId: string): string {
  return join(journalFolder(paths), `${pluginId}.json`);
}

/** Writes the journal durably (atomic write, folder flushed). */
export async function writeJournal(paths: DataPaths, journal: TransactionJournal): Promise<void> {
  await writeJsonAtomic(journalFile(paths, journal.pluginId), journal);
}

/** Removes the journal: the transaction is committed (or fully undone). */
export async function removeJournal(paths: DataPaths, pluginId: string): Promise<void> {
  await rm(journalFile(paths, pluginId), { force: true });
  await syncFolder(journalFolder(paths));
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function readLocation(value: unknown, pluginId: string): TransactionLocation | null | undefined {
  if (value === null) return null;
  if (!isObject(value) || typeof value.name !== 'string') return undefined;
  const name = value.name;
  if (value.in === 'plugins' && snapshotOwner(name) === pluginId && !/[/\\]/.test(name) && name !== '.' && name !== '..') {
    return { in: 'plugins', name };
  }
  if (value.in === 'transaction' && (name === 'incoming' || name === 'replaced')) return { in: 'transaction', name };
  return undefined;
}

/**
 * Checks a journal read from disk: every name must be one this plugin's transactions can produce,
 * so that recovery only ever moves this plugin's folders and its own work folder.
 */
export function parseJournal(value: unknown, pluginId: string): TransactionJournal | null {
  if (!isObject(value) || value.version !== 1 || value.pluginId !== pluginId || !isValidPluginId(pluginId)) return null;
  const operation = value.operation;
  const transaction = value.transaction;
  if ((operation !== 'install' && operation !== 'rollback') || typeof transaction !== 'string' || !TRANSACTION_NAME.test(transaction)) {
    return null;
  }
  const incoming = readLocation(value.incoming, pluginId);
  const outgoing = readLocation(value.outgoing, pluginId);
  const retired = value.retired;
  if (!incoming || outgoing === undefined || !Array.isArray(retired)) return null;
  const retiredNames: string[] = [];
  for (const name of retired) {
    const location = readLocation({ in: 'plugins', name }, pluginId);
    if (!location) return null;
    retiredNames.push(location.name);
  }
  return {
    version: 1,
    operation,
    pluginId,
    transaction,
    incoming,
    outgoing,
    retired: retiredNames,
    previousRecord: readRecord(value.previousRecord) ?? null,
  };
}

/** Every journal left in `backend/plugin-transactions/`, with the file names it could not use. */
export async function readJournals(paths: DataPaths): Promise<{ journals: TransactionJournal[]; unreadable: string[] }> {
  let names: string[];
  try {
    names = await readdir(journalFolder(paths));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { journals: [], unreadable: [] };
    throw error;
  }
  const journals: TransactionJournal[] = [];
  const unreadable: string[] = [];
  for (const name of names.sort()) {
    if (!name.endsWith('.json')) continue;
    const pluginId = name.slice(0, -'.json'.length);
    let journal: TransactionJournal | null = null;
    try {
      journal = parseJournal(await readJsonFile(join(journalFolder(paths), name), null), pluginId);
    } catch {
      journal = null;
    }
    if (journal) journals.push(journal);
    else unreadable.push(name);
  }
  return { journals, unreadable };
}
