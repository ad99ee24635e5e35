/**
 * The `--mock` file of the debug harness (specification, "Debug harness stub"): which keys it may
 * hold, the shape of each, and the check that refuses anything else at start.
 */
import { isAbsolute } from 'node:path';
import {
  type AddedDownloadTask,
  DOWNLOAD_STATUSES,
  type DownloadSnapshot,
  type DownloadSnapshotDetails,
  ErrorCode,
  type ExecResult,
  type PluginStatus,
  type ProxyResponse,
  type SystemInfo,
  isValidPluginId,
} from '@plughost/host-sdk/core';
import { CliError } from '../../cli-error.js';
import {
  type Shape,
  arrayOf,
  booleanShape,
  describeValue,
  fieldsOf,
  integerShape,
  isJsonObject,
  literalShape,
  nullable,
  numberShape,
  objectShape,
  recordOf,
  stringShape,
  wrongKind,
} from './json-shapes.js';
import { nearestName } from './nearest-name.js';

/**
 * An error the stub answers instead of its data: the body of every backend error
 * (`{"error": {"code", "message"}}`, decisions section 3), with the status of `code`. Extra fields
 * beside `code` are sent as given (for example `prefix` with `FS_AUTHORIZATION_REQUIRED`).
 */
export interface MockErrorAnswer {
  readonly error: { readonly code: ErrorCode; readonly message: string; readonly [detail: string]: unknown };
}

/** The proxy's answer (ProxyResponse), plus the chunks its simulated stream sends. */
export interface MockProxyResponse extends Partial<ProxyResponse> {
  /** The upstream status; with `stream: true` a status outside 200 to 299 is answered 502 `PROXY_UPSTREAM_FAILED`, as the backend does. */
  readonly status?: number;
  /** With `stream: true`: the data of each event, in order (the stub's default ends with `[DONE]`). */
  readonly chunks?: readonly string[];
}

/** A file `readText`/`readBytes` find: text, bytes in base64, or an error. */
export type MockFileContent = string | { readonly contentBase64: string } | MockErrorAnswer;

/** Snapshot fields `downloadProgress` may set on every download task. */
export type MockDownloadProgress = Partial<Omit<DownloadSnapshot, 'sessionId'> & Pick<DownloadSnapshotDetails, 'bytesDownloaded' | 'bytesTotal'>>;

/**
 * What a `--mock` file may override. Each key replaces the stub's answer for its routes; every key
 * is optional. Object answers are merged over the stub's own (give only the fields you care
 * about); an answer may instead be an error ({@link MockErrorAnswer}) where the type says so.
 * `docs/debug-harness-stub.md` shows an example of each.
 */
export interface MockOverrides {
  /** Plugin id → the settings that plugin starts with (in memory; writes merge over them). */
  readonly settings?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
  /** Fields of `GET /api/systeminfo` (and `/api/system/info`). */
  readonly systemInfo?: Partial<SystemInfo> | MockErrorAnswer;
  /** The answer of `POST /api/plugins/proxy`, and the events of its stream. */
  readonly proxyResponse?: MockProxyResponse | MockErrorAnswer;
  /** The answer of `POST /api/modpack/install-direct`. */
  readonly modpackInstall?: { readonly instanceId: string } | MockErrorAnswer;
  /** Fields of the answer of `POST /api/plugins/download/tasks` (`download.addTask`). */
  readonly downloadStart?: Partial<AddedDownloadTask> | MockErrorAnswer;
  /** Fields every download snapshot reports (task routes and events); tasks then stay as given instead of progressing. */
  readonly downloadProgress?: MockDownloadProgress;
  /** Absolute path → what `POST /api/plugins/files/<id>/read` finds there; other paths are 404 `FS_FILE_NOT_FOUND`. */
  readonly fileRead?: Readonly<Record<string, MockFileContent>>;
  /** Fields of the answer of `POST /api/plugins/shell/<id>` (`execCommand`). */
  readonly execCommand?: Partial<ExecResult> | MockErrorAnswer;
  /** The plugin ids `GET /api/plugins/wasm` lists (invoke still answers 400). */
  readonly wasmList?: readonly string[];
  /** Plugin id → the status the plugin list reports for it (ids not in `plugins-dev/` are ignored). */
  readonly pluginStates?: Readonly<Record<string, PluginStatus>>;
}

/** The keys of a mock file, in the specification's order. */
export const MOCK_KEYS = [
  'settings',
  'systemInfo',
  'proxyResponse',
  'modpackInstall',
  'downloadStart',
  'downloadProgress',
  'fileRead',
  'execCommand',
  'wasmList',
  'pluginStates',
] as const satisfies readonly (keyof MockOverrides)[];

const ERROR_CODES: readonly string[] = Object.values(ErrorCode);
const PLUGIN_ID_RULE = 'a plugin id (reverse-domain, lower case, e.g. com.example.hello)';

const pluginIdKey = (key: string): string | null => (isValidPluginId(key) ? null : PLUGIN_ID_RULE);
const text = stringShape();
const count = (what: string): Shape => integerShape(`a whole number of ${what}, 0 or more`, 0);

const base64Shape: Shape = {
  expected: 'standard padded base64',
  check: (value, at) =>
    typeof value === 'string' && Buffer.from(value, 'base64').toString('base64') === value ? null : wrongKind(at, 'standard padded base64', value),
};

const errorAnswerShape: Shape = {
  expected: '{"error": {"code": "<an error code>", "message": "..."}}',
  check(value, at) {
    const error = isJsonObject(value) ? value.error : undefined;
    if (!isJsonObject(error)) return { at: `${at}.error`, expected: 'an object {"code", "message"}', found: describeValue(error) };
    if (typeof error.code !== 'string' || !ERROR_CODES.includes(error.code)) {
      const near = typeof error.code === 'string' ? nearestName(error.code, ERROR_CODES) : null;
      return {
        at: `${at}.error.code`,
        expected: `an error code of docs/errors.md (e.g. FS_AUTHORIZATION_REQUIRED)${near ? ` (did you mean "${near}"?)` : ''}`,
        found: describeValue(error.code),
      };
    }
    if (typeof error.message !== 'string' || error.message === '')
      return { at: `${at}.error.message`, expected: 'a non-empty string', found: describeValue(error.message) };
    return null;
  },
};

/** True when `value` is written as an error answer: an object whose only key is `error`. */
export function isMockErrorAnswer(value: unknown): value is MockErrorAnswer {
  return isJsonObject(value) && Object.keys(value).length === 1 && Object.hasOwn(value, 'error');
}

/** `answer`, or an error answer instead. */
function orError(answer: Shape): Shape {
  const expected = `${answer.expected}, or {"error": {"code", "message"}}`;
  return {
    expected,
    check(value, at) {
      if (isMockErrorAnswer(value)) return errorAnswerShape.check(value, at);
      const problem = answer.check(value, at);
      // A value of another kind is told both forms it may take.
      return problem?.wrongKind && problem.at === at ? { ...problem, expected } : problem;
    },
  };
}

const systemInfoShape = fieldsOf({
  expected: 'an object of system information fields (Os, OsName, Memory, LauncherVersion, ...)',
  fields: {
    Os: text,
    Architecture: text,
    OsName: text,
    OsVersion: text,
    OsVersionId: text,
    OsDisplayName: text,
    GitCommit: text,
    Memory: count('bytes'),
    AvailableMemory: count('bytes'),
    LauncherName: text,
    LauncherVersion: text,
    VersionType: literalShape(['alpha', 'beta', 'rc', 'dev', 'stable']),
    Developers: arrayOf(
      fieldsOf({ expected: 'an object {"name", "role"}', fields: { name: text, role: text }, required: ['name', 'role'] }),
      'an array of {"name", "role"}',
    ),
    CoreDependencies: arrayOf(
      fieldsOf({
        expected: 'an object {"name", "version", "license"}',
        fields: { name: text, version: text, license: text },
        required: ['name', 'version', 'license'],
      }),
      'an array of {"name", "version", "license"}',
    ),
  },
});

const proxyResponseShape = fieldsOf({
  expected: 'a ProxyResponse object {"status", "headers", "body", "bodyBase64"} (and "chunks" for streams)',
  fields: {
    status: integerShape('an HTTP status from 100 to 599', 100, 599),
    headers: recordOf({ expected: 'an object of header names to strings', key: (key) => (key === '' ? 'a header name' : null), value: text }),
    body: nullable(text),
    bodyBase64: nullable(base64Shape),
    chunks: arrayOf(text, 'an array of strings (the data of each event)'),
  },
});

const downloadProgressShape = fieldsOf({
  expected: 'an object of download snapshot fields (status, progress, stage, ...)',
  fields: {
    status: literalShape(DOWNLOAD_STATUSES),
    stage: text,
    progress: numberShape('a percentage from 0 to 100', 0, 100),
    speed: count('bytes per second'),
    currentFile: nullable(text),
    totalFiles: count('files'),
    completedFiles: count('files'),
    failedFiles: count('files'),
    error: nullable(text),
    isPaused: booleanShape,
    instanceId: nullable(text),
    bytesDownloaded: count('bytes'),
    bytesTotal: nullable(count('bytes')),
  },
});

const FILE_CONTENT = 'a string (text), {"contentBase64": "..."} (bytes) or {"error": {"code", "message"}}';
const bytesContentShape = fieldsOf({ expected: FILE_CONTENT, fields: { contentBase64: base64Shape }, required: ['contentBase64'] });
const fileContentShape: Shape = {
  expected: FILE_CONTENT,
  check(value, at) {
    if (typeof value === 'string') return null;
    if (isMockErrorAnswer(value)) return errorAnswerShape.check(value, at);
    if (isJsonObject(value)) return bytesContentShape.check(value, at);
    return wrongKind(at, FILE_CONTENT, value);
  },
};

const pluginIdShape: Shape = {
  expected: PLUGIN_ID_RULE,
  check: (value, at) => (typeof value === 'string' && isValidPluginId(value) ? null : wrongKind(at, PLUGIN_ID_RULE, value)),
};

/** The shape of each key. */
const MOCK_SHAPES: Readonly<Record<(typeof MOCK_KEYS)[number], Shape>> = {
  settings: recordOf({
    expected: 'an object mapping plugin ids to settings objects, e.g. {"com.example.hello": {"theme": "dark"}}',
    key: pluginIdKey,
    value: objectShape('a settings object (JSON object of key to value)'),
  }),
  systemInfo: orError(systemInfoShape),
  proxyResponse: orError(proxyResponseShape),
  modpackInstall: orError(
    fieldsOf({
      expected: 'an object {"instanceId": "..."}',
      fields: { instanceId: stringShape('a non-empty string', { nonEmpty: true }) },
      required: ['instanceId'],
    }),
  ),
  downloadStart: orError(
    fieldsOf({
      expected: 'an object of {"taskId", "status", "targetPath"} fields',
      fields: { taskId: stringShape('a non-empty string', { nonEmpty: true }), status: literalShape(DOWNLOAD_STATUSES), targetPath: text },
    }),
  ),
  downloadProgress: downloadProgressShape,
  fileRead: recordOf({
    expected: 'an object mapping absolute paths to file contents, e.g. {"/home/me/notes.txt": "hello"}',
    key: (key) => (isAbsolute(key) ? null : 'an absolute path'),
    value: fileContentShape,
  }),
  execCommand: orError(
    fieldsOf({
      expected: 'an object of {"exitCode", "stdout", "stderr"} fields',
      fields: { exitCode: integerShape('a whole number'), stdout: text, stderr: text },
    }),
  ),
  wasmList: arrayOf(pluginIdShape, 'an array of plugin ids'),
  pluginStates: recordOf({
    expected: 'an object mapping plugin ids to a status, e.g. {"com.example.hello": "disabled"}',
    key: pluginIdKey,
    value: literalShape(['active', 'installed', 'disabled'] satisfies PluginStatus[]),
  }),
};

function invalidMock(source: string, message: string): CliError {
  return new CliError('INVALID_MOCK', `${source}: ${message}`);
}

/**
 * Checks a parsed mock file and returns it as {@link MockOverrides}.
 *
 * @param source - What to name in messages (the file's path).
 * @throws CliError `INVALID_MOCK` naming the key (with the nearest known key when it is unknown),
 *   the shape expected there and what was found.
 */
export function validateMockOverrides(value: unknown, source: string): MockOverrides {
  if (!isJsonObject(value)) {
    throw invalidMock(source, `a mock file must be a JSON object with some of the keys ${MOCK_KEYS.join(', ')}, but it is ${describeValue(value)}.`);
  }
  for (const [key, entry] of Object.entries(value)) {
    if (!(MOCK_KEYS as readonly string[]).includes(key)) {
      const near = nearestName(key, MOCK_KEYS);
      throw invalidMock(source, `unknown key "${key}"${near ? ` (did you mean "${near}"?)` : ''}; the keys are ${MOCK_KEYS.join(', ')}.`);
    }
    const problem = MOCK_SHAPES[key as (typeof MOCK_KEYS)[number]].check(entry, key);
    if (problem) throw invalidMock(source, `"${problem.at}" must be ${problem.expected}, but it is ${problem.found}.`);
  }
  return value as MockOverrides;
}
