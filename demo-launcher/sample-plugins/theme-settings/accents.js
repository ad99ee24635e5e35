// Accent colours offered by the settings page, as theme token values (H S% L%).
// Shared by index.html and settings.html (classic scripts share the page's global scope).
const ACCENTS = {
  violet: { label: 'Violet', value: '262 83% 58%' },
  teal: { label: 'Teal', value: '173 58% 39%' },
  amber: { label: 'Amber', value: '38 92% 50%' },
  rose: { label: 'Rose', value: '346 77% 50%' },
};
const DEFAULT_ACCENT = 'violet';

/** The override for an accent: the primary colour and the focus ring. */
function accentOverride(name) {
  const accent = ACCENTS[name] ?? ACCENTS[DEFAULT_ACCENT];
  return { primary: accent.value, ring: accent.value };
}

/** Shows a failed call on the page, with the bridge error code when there is one. */
function showError(error) {
  const line = document.createElement('p');
  const message = typeof error?.message === 'string' ? error.message : String(error);
  line.textContent = typeof error?.code === 'string' ? `${message} (${error.code})` : message;
  document.getElementById('errors').append(line);
}

async function pluginApi() {
  const api = window.__PLUGIN_API__;
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page from the launcher.');
  await api.ready;
  return api;
}
