// Library sample: registers formatPlaytime(seconds) for other plugins, which call it with
// callPlugin('com.plughost.samples.library', 'formatPlaytime', seconds).

/** 3725 → "1 h 2 min", 300 → "5 min", 59 → "0 min". */
function formatPlaytime(seconds) {
  if (typeof seconds !== 'number' || !Number.isFinite(seconds) || seconds < 0) {
    throw new TypeError('formatPlaytime expects a number of seconds, 0 or more');
  }
  const totalMinutes = Math.floor(seconds / 60);
  const hours = Math.floor(totalMinutes / 60);
  const minutes = totalMinutes % 60;
  return hours > 0 ? `${hours} h ${minutes} min` : `${minutes} min`;
}

async function main() {
  const api = window.__PLUGIN_API__;
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page from the launcher.');
  await api.ready;
  await api.registerMethod('formatPlaytime', formatPlaytime);
}

// The page is never shown: report a failure in the console and in the page for the debug tools.
main().catch((error) => {
  const message = typeof error?.message === 'string' ? error.message : String(error);
  console.error(`[playtime library] formatPlaytime could not be registered: ${message}`);
  document.body.textContent = `formatPlaytime could not be registered: ${message}`;
});
