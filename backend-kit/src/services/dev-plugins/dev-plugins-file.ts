import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DEV_PLUGINS_FILE_NAME, parseDevPluginsFile } from '@plughost/host-sdk/core';
import type { BackendLogger } from '../../http/logger.js';

/**
 * Reads `<data directory>/.dev-plugins.json` (written by `pluginctl dev`) with core's parser. The
 * problems of a text are logged once, with what to do, and not again until the text changes (the
 * file is read again at every listing). A text that is not JSON at all (an editor saving it in
 * place, caught halfway) keeps the last entries that could be read, until the file is fixed.
 */
export class DevPluginsFileReader {
  readonly path: string;
  #lastText: string | null = null;
  #lastPlugins: ReadonlyMap<string, string> = new Map();

  constructor(
    dataDirectory: string,
    private readonly logger: BackendLogger,
  ) {
    this.path = join(dataDirectory, DEV_PLUGINS_FILE_NAME);
  }

  /** Plugin id to dev server base URL; empty when the file does not exist. */
  async read(): Promise<ReadonlyMap<string, string>> {
    let text: string;
    try {
      text = await readFile(this.path, 'utf8');
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code !== 'ENOENT') this.logger.warn(`${this.path} cannot be read (${code ?? String(error)}); no dev plugins are loaded from it`);
      this.#lastText = null;
      this.#lastPlugins = new Map();
      return this.#lastPlugins;
    }
    if (text === this.#lastText) return this.#lastPlugins;
    this.#lastText = text;
    if (!isJson(text)) {
      // An empty file is one being written: nothing to say yet.
      if (text.trim() !== '') this.logger.warn(`${this.path} is not valid JSON; the dev plugins read before stay until it is fixed`);
      return this.#lastPlugins;
    }
    const { plugins, problems } = parseDevPluginsFile(text);
    for (const problem of problems) {
      this.logger.warn(
        `${this.path}: ${problem}. That entry is ignored; run \`pluginctl dev\` again to rewrite the file, or fix the entry by hand ({"<plugin id>": "http://127.0.0.1:<port>/"}).`,
      );
    }
    this.#lastPlugins = plugins;
    return plugins;
  }
}

function isJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}
