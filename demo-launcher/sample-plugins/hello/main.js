// Hello sample: system information, a toast, and the `file-drop` method the launcher calls with
// the paths of files dropped on its window.

/** Shows a failed call on the page, with the bridge error code when there is one. */
function showError(error) {
  const line = document.createElement('p');
  const message = typeof error?.message === 'string' ? error.message : String(error);
  line.textContent = typeof error?.code === 'string' ? `${message} (${error.code})` : message;
  document.getElementById('errors').append(line);
}

function element(tag, text) {
  const node = document.createElement(tag);
  node.textContent = text;
  return node;
}

function gibibytes(bytes) {
  return typeof bytes === 'number' ? `${(bytes / 1024 ** 3).toFixed(1)} GiB` : 'unknown';
}

function showSystemInfo(info) {
  const rows = [
    ['Launcher', `${info.LauncherName} ${info.LauncherVersion} (${info.VersionType})`],
    ['System', info.OsDisplayName || `${info.OsName} ${info.OsVersion}`],
    ['Architecture', info.Architecture],
    ['Memory', `${gibibytes(info.AvailableMemory)} available of ${gibibytes(info.Memory)}`],
    // The bridge leaves GitCommit out when the launcher does not know it: no row then.
    ...(info.GitCommit ? [['Commit', info.GitCommit]] : []),
  ];
  document.getElementById('system').replaceChildren(...rows.flatMap(([label, value]) => [element('dt', label), element('dd', value ?? 'unknown')]));
}

/** The `file-drop` method: lists the dropped files by name (the full path as a tooltip). */
function onFileDrop(paths) {
  if (!Array.isArray(paths) || !paths.every((path) => typeof path === 'string')) {
    throw new TypeError('file-drop expects an array of file paths');
  }
  const items = paths.map((path) => {
    const item = element('li', path.split(/[\\/]/).pop() || path);
    item.title = path;
    return item;
  });
  document.getElementById('dropped').replaceChildren(...(items.length > 0 ? items : [element('li', 'The drop held no files.')]));
  return paths.length;
}

async function main() {
  const api = window.__PLUGIN_API__;
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page from the launcher.');
  await api.ready;

  const sayHi = document.getElementById('say-hi');
  sayHi.addEventListener('click', () => {
    api.call('showToast', 'Hi from the Hello sample plugin!', 'success').catch(showError);
  });
  sayHi.disabled = false;

  api.registerMethod('file-drop', onFileDrop).catch(showError);
  api.call('getSystemInfo').then(showSystemInfo, (error) => {
    document.getElementById('system').replaceChildren(element('dt', 'Not available'));
    showError(error);
  });
}

main().catch(showError);
