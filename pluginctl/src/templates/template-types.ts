/** One project template of `pluginctl create`: relative file paths mapped to their text. */
export interface ProjectTemplate {
  /** One line for `create --help`. */
  readonly summary: string;
  /**
   * The files, with `__PLUGIN_ID__` and `__PLUGIN_NAME__` standing for the plugin id and its
   * display name. Paths use forward slashes.
   */
  readonly files: Readonly<Record<string, string>>;
  /** What to run after creating, shown to the author. */
  readonly nextSteps: readonly string[];
}

/** Turns an object into the 2-space JSON text (with a final newline) every template writes. */
export function jsonFile(value: unknown): string {
  return `${JSON.stringify(value, null, 2)}\n`;
}
