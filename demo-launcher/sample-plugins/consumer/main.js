// Consumer sample: asks the library plugin to format a playtime.
const LIBRARY = 'com.plughost.samples.library';

/** Shows a failed call on the page, with the bridge error code when there is one. */
function showError(error) {
  const line = document.createElement('p');
  const message = typeof error?.message === 'string' ? error.message : String(error);
  line.textContent = typeof error?.code === 'string' ? `${message} (${error.code})` : message;
  document.getElementById('errors').append(line);
}

const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function main() {
  const api = window.__PLUGIN_API__;
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page from the launcher.');
  await api.ready;

  const output = document.getElementById('playtime');
  const seconds = document.getElementById('seconds');
  // At launcher start this page may ask before the library's page has registered its method:
  // the first call retries a few times on `no-such-method`.
  const ask = async (attempts) => {
    for (let attempt = 1; ; attempt += 1) {
      try {
        output.textContent = await api.callPlugin(LIBRARY, 'formatPlaytime', seconds.valueAsNumber);
        return;
      } catch (error) {
        if (attempt >= attempts || error?.details?.reason !== 'no-such-method') {
          output.textContent = 'unknown';
          throw error;
        }
        await wait(500);
      }
    }
  };

  // Plugin frames have no allow-forms, so no submit event ever comes: the button's click and Enter
  // in the field ask.
  const askAgain = () => ask(1).catch(showError);
  const button = document.getElementById('format');
  button.addEventListener('click', askAgain);
  seconds.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.isComposing) askAgain();
  });
  button.disabled = false;
  await ask(5);
}

main().catch(showError);
