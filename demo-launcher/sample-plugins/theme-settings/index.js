// The plugin's frontend, activated when the launcher starts: re-applies the saved accent colour
// when the user asked for it on the settings page.
async function main() {
  const api = await pluginApi();
  const openSettings = document.getElementById('open-settings');
  openSettings.addEventListener('click', () => api.call('openPluginSettings').catch(showError));
  openSettings.disabled = false;

  const status = document.getElementById('status');
  const settings = await api.call('getSettings');
  if (settings.applyOnStart === true) {
    await api.call('applyThemeOverride', accentOverride(settings.accent));
    status.textContent = `Applied the saved accent colour (${ACCENTS[settings.accent]?.label ?? ACCENTS[DEFAULT_ACCENT].label}).`;
  } else {
    status.textContent = 'No accent colour is applied at start (see the settings page).';
  }
}

main().catch(showError);
