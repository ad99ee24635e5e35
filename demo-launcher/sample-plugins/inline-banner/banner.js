// Inline sample: this script runs in the launcher's own window, not in a frame. It keeps to
// itself (one function scope, class names with the `plughost-sample-banner` prefix) and reads
// `__PLUGIN_API__` and `#root` at once: an inline plugin loaded later takes both over.
(() => {
  const api = window.__PLUGIN_API__;
  const root = document.getElementById('root');
  const PREFIX = 'plughost-sample-banner';

  const part = (tag, name, text) => {
    const node = document.createElement(tag);
    node.className = name ? `${PREFIX}__${name}` : PREFIX;
    if (text !== undefined) node.textContent = text;
    return node;
  };
  const banner = part('div', '');
  banner.setAttribute('role', 'status');
  const text = part('span', 'text', 'Inline plugin: this banner is rendered inside the launcher window, not in a sandboxed frame.');
  const hide = part('button', 'button', "Don't show again");
  const dismiss = part('button', 'button', 'Dismiss');
  hide.type = dismiss.type = 'button';
  const error = part('span', 'error');
  error.hidden = true;
  banner.append(text, hide, dismiss, error);

  const showError = (failure) => {
    const message = typeof failure?.message === 'string' ? failure.message : String(failure);
    error.textContent = typeof failure?.code === 'string' ? `${message} (${failure.code})` : message;
    error.hidden = false;
  };

  dismiss.addEventListener('click', () => banner.remove());
  hide.addEventListener('click', async () => {
    try {
      await api.call('setSettings', 'hidden', true);
      banner.remove();
    } catch (failure) {
      showError(failure);
    }
  });

  if (!root) {
    console.error('[inline banner] document.getElementById("root") found no container');
    return;
  }
  (async () => {
    if (!api) throw new Error('window.__PLUGIN_API__ is missing: this plugin must be loaded by the launcher.');
    await api.ready;
    const settings = await api.call('getSettings');
    if (settings.hidden !== true) root.append(banner);
  })().catch((failure) => {
    // Show the banner anyway, with the reason it could not read its settings.
    root.append(banner);
    showError(failure);
  });
})();
