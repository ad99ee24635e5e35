// Overlay sample: creates the FPS meter overlay from overlay.html, then shows, hides and closes it.

/** Shows a failed call on the page, with the bridge error code when there is one. */
function showError(error) {
  const line = document.createElement('p');
  const message = typeof error?.message === 'string' ? error.message : String(error);
  line.textContent = typeof error?.code === 'string' ? `${message} (${error.code})` : message;
  document.getElementById('errors').append(line);
}

const buttons = { open: document.getElementById('open'), hide: document.getElementById('hide'), close: document.getElementById('close') };
const status = document.getElementById('status');
let overlayId = null;

function update(text) {
  status.textContent = text;
  buttons.open.disabled = false;
  buttons.hide.disabled = buttons.close.disabled = overlayId === null;
}

/** The overlay's page: overlay.html of this package (plugin files are served to frames with CORS). */
async function overlayHtml() {
  const response = await fetch('overlay.html');
  if (!response.ok) throw new Error(`overlay.html could not be loaded (HTTP ${response.status})`);
  return response.text();
}

async function main() {
  const api = window.__PLUGIN_API__;
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page from the launcher.');
  await api.ready;

  const run = (action) => () => action().catch(showError);
  buttons.open.addEventListener(
    'click',
    run(async () => {
      // The same window as the manifest's contributes.overlay: top right of the launcher, clear of the sidebar.
      overlayId ??= await api.call('overlay.create', {
        title: 'FPS meter',
        html: await overlayHtml(),
        x: 980,
        y: 96,
        width: 240,
        height: 140,
        minimizable: true,
        resizable: false,
      });
      await api.call('overlay.show', overlayId);
      update(`Overlay ${overlayId} is shown.`);
    }),
  );
  buttons.hide.addEventListener(
    'click',
    run(async () => {
      await api.call('overlay.hide', overlayId);
      update(`Overlay ${overlayId} is hidden (Open overlay shows it again).`);
    }),
  );
  buttons.close.addEventListener(
    'click',
    run(async () => {
      const id = overlayId;
      overlayId = null;
      update('No overlay open.');
      await api.call('overlay.destroy', id);
    }),
  );
  update(status.textContent);
}

main().catch(showError);
