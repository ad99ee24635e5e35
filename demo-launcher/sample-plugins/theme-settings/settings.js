// Settings page: reads and writes the plugin's settings, applies and clears a theme override.
const accentSelect = document.getElementById('accent');
const applyOnStart = document.getElementById('apply-on-start');
const status = document.getElementById('status');

for (const [name, accent] of Object.entries(ACCENTS)) {
  accentSelect.append(new Option(`${accent.label} (${accent.value})`, name));
}

async function main() {
  const api = await pluginApi();

  const showSaved = async () => {
    const settings = await api.call('getSettings');
    document.getElementById('saved').textContent = JSON.stringify(settings, null, 2);
    return settings;
  };
  const save = (key, value) =>
    api
      .call('setSettings', key, value)
      .then(showSaved)
      .then(() => (status.textContent = `Saved ${key}.`), showError);

  const settings = await showSaved();
  accentSelect.value = Object.hasOwn(ACCENTS, settings.accent) ? settings.accent : DEFAULT_ACCENT;
  applyOnStart.checked = settings.applyOnStart === true;

  accentSelect.addEventListener('change', () => save('accent', accentSelect.value));
  applyOnStart.addEventListener('change', () => save('applyOnStart', applyOnStart.checked));
  document.getElementById('apply').addEventListener('click', () => {
    api
      .call('applyThemeOverride', accentOverride(accentSelect.value))
      .then(() => (status.textContent = `The launcher now uses ${ACCENTS[accentSelect.value].label} as its primary colour.`), showError);
  });
  document.getElementById('clear').addEventListener('click', () => {
    api.call('clearThemeOverride').then(() => (status.textContent = 'The launcher is back to its own colours.'), showError);
  });
  for (const control of document.querySelectorAll('select, input, button')) control.disabled = false;
}

main().catch(showError);
