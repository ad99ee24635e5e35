// WASM sample: calls the exports of this package's plugin.wasm through the backend.
const PLUGIN_ID = 'com.plughost.samples.wasm';

/** Shows a failed call on the page, with the bridge error code when there is one. */
function showError(error) {
  const line = document.createElement('p');
  const message = typeof error?.message === 'string' ? error.message : String(error);
  line.textContent = typeof error?.code === 'string' ? `${message} (${error.code})` : message;
  document.getElementById('errors').append(line);
}

async function main() {
  const api = window.__PLUGIN_API__;
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page from the launcher.');
  await api.ready;

  const onLoad = document.getElementById('on-load');
  const runOnLoad = async () => {
    onLoad.textContent = '…';
    try {
      const { result } = await api.callWasm(PLUGIN_ID, 'on_load');
      onLoad.textContent = String(result);
    } catch (error) {
      onLoad.textContent = 'failed';
      throw error;
    }
  };

  const sum = document.getElementById('sum');
  const add = () => {
    const a = document.getElementById('a').valueAsNumber;
    const b = document.getElementById('b').valueAsNumber;
    sum.textContent = '…';
    api.callWasm(PLUGIN_ID, 'add', a, b).then(
      ({ result }) => (sum.textContent = String(result)),
      (error) => {
        sum.textContent = 'failed';
        showError(error);
      },
    );
  };
  // Plugin frames have no allow-forms, so no submit event ever comes: the button's click and Enter
  // in either field add.
  document.getElementById('add-button').addEventListener('click', add);
  for (const input of document.querySelectorAll('#add input')) {
    input.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && !event.isComposing) add();
    });
  }
  const run = document.getElementById('run');
  run.addEventListener('click', () => runOnLoad().catch(showError));
  for (const control of document.querySelectorAll('button')) control.disabled = false;

  api.listWasmPlugins().then((ids) => (document.getElementById('loaded').textContent = `Loaded WASM plugins: ${ids.join(', ') || 'none'}.`), showError);
  await runOnLoad();
}

main().catch(showError);
