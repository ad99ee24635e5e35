import { HARNESS_CONFIG_ELEMENT_ID, HARNESS_PATHS, type HarnessPageConfig } from './page-config.js';

/**
 * The harness page: its stylesheet, its settings as inert JSON, and its module script. `<` is
 * escaped in the JSON (`\u003c`, the same character to `JSON.parse`), so no value, such as a
 * build's output, can end the script element early.
 */
export function renderHarnessPage(config: HarnessPageConfig): string {
  const json = JSON.stringify(config).replace(/</g, '\\u003c');
  return `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <meta name="color-scheme" content="light dark" />
    <title>Debug harness</title>
    <link rel="icon" href="data:," />
    <link rel="stylesheet" href="${HARNESS_PATHS.stylesheet}" />
    <script type="application/json" id="${HARNESS_CONFIG_ELEMENT_ID}">${json}</script>
    <script type="module" src="${HARNESS_PATHS.script}"></script>
  </head>
  <body></body>
</html>
`;
}
