import { html } from 'lit';

/** The last failed build of a dev plugin, as its dev server reported it. */
export interface BuildError {
  readonly pluginId: string;
  /** The end of the build's output (where compilers put the error). */
  readonly output: string;
  /** When the build finished (ISO 8601). */
  readonly at: string;
}

/**
 * The build error of a dev plugin, shown above its page: the output in a monospace block that
 * keeps its line breaks and scrolls, what happens now, and a Dismiss button. The output is plugin
 * build text: it is only ever set as text.
 */
export function renderBuildError(error: BuildError, name: string, dismiss: () => void) {
  return html`<section class="build-error" role="alert" aria-labelledby="build-error-title" data-plugin-id=${error.pluginId}>
    <header>
      <h2 id="build-error-title">The build of ${name} failed</h2>
      <button type="button" @click=${dismiss}>Dismiss</button>
    </header>
    <pre class="build-output">${error.output || '(the build printed nothing)'}</pre>
    <p class="hint">The previous version keeps running below. Fix the error and save: the next successful build replaces it.</p>
  </section>`;
}
