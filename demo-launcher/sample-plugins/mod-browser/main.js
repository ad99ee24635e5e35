// Mod browser sample: the launcher routes of the demo through `callBackend` (instances, public
// preferences, the resource catalogue, installing into an instance), and the install's progress
// from the download manager.

const PAGE_SIZE = 6;
const FINISHED = new Set(['completed', 'failed', 'cancelled']);
const POLL_MS = 250;
const TYPE_LABEL = { mod: 'Mod', resourcepack: 'Resource pack', shaderpack: 'Shader pack', datapack: 'Data pack' };

const api = window.__PLUGIN_API__;
/** The state of the page: instances by id, the number format of the launcher's language, the current search. */
const state = { instances: new Map(), numbers: new Intl.NumberFormat('en'), page: 1, searches: 0 };

/** Shows a failed call on the page, with the bridge error code when there is one. */
function showError(error) {
  const line = document.createElement('p');
  const message = typeof error?.message === 'string' ? error.message : String(error);
  line.textContent = typeof error?.code === 'string' ? `${message} (${error.code})` : message;
  document.getElementById('errors').append(line);
}

function element(tag, properties = {}, children = []) {
  const node = Object.assign(document.createElement(tag), properties);
  node.append(...children);
  return node;
}

const byId = (id) => document.getElementById(id);
const callBackend = (endpoint, data) => api.call('callBackend', endpoint, data);
const wait = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

function sizeText(bytes) {
  return bytes >= 1024 * 1024 ? `${(bytes / 1024 / 1024).toFixed(1)} MiB` : `${Math.round(bytes / 1024)} KiB`;
}

function describeInstance(instance) {
  const loader = instance.loader ? ` · ${instance.loader}` : ' · vanilla';
  return `${instance.name} (${instance.gameVersion ?? 'any version'}${loader})`;
}

function selectedInstance() {
  return state.instances.get(byId('instance').value);
}

/** The search's query string: words, kind, and (when asked) the selected instance's game version and loader. */
function searchQuery() {
  const params = new URLSearchParams({ page: String(state.page), pageSize: String(PAGE_SIZE) });
  const words = byId('query').value.trim();
  if (words) params.set('q', words);
  if (byId('type').value) params.set('type', byId('type').value);
  const instance = selectedInstance();
  if (byId('compatible').checked && instance) {
    if (instance.gameVersion) params.set('gameVersion', instance.gameVersion);
    // A vanilla instance takes packs only: a loader no mod has filters every mod out.
    params.set('loader', instance.loader ?? 'none');
  }
  return params.toString();
}

/** Follows an install in the download manager until it finished, showing its progress on the card. */
async function follow(taskId, card) {
  const bar = card.querySelector('progress');
  const label = card.querySelector('.state');
  for (;;) {
    const snapshot = await api.call('download.progress', taskId);
    if (!snapshot) throw new Error('The download disappeared from the download manager');
    bar.value = snapshot.progress;
    label.textContent =
      snapshot.status === 'completed'
        ? `Installed into ${selectedInstance()?.name ?? 'the instance'}`
        : `${snapshot.stage} · ${Math.floor(snapshot.progress)} %`;
    if (FINISHED.has(snapshot.status)) {
      card.dataset.state = snapshot.status;
      if (snapshot.status !== 'completed') label.textContent = snapshot.error ? `${snapshot.status}: ${snapshot.error}` : snapshot.status;
      return;
    }
    await wait(POLL_MS);
  }
}

async function install(resource, card, button) {
  const instance = selectedInstance();
  if (!instance) return;
  button.disabled = true;
  card.dataset.state = 'downloading';
  card.querySelector('.state').textContent = 'Starting…';
  card.querySelector('progress').hidden = false;
  try {
    const task = await callBackend('/resource-download/start', { resourceId: resource.id, instanceId: instance.id });
    card.dataset.taskId = task.taskId;
    await follow(task.taskId, card);
  } catch (error) {
    card.dataset.state = 'failed';
    card.querySelector('.state').textContent = 'Not installed';
    showError(error);
  } finally {
    button.disabled = false;
  }
}

function resourceCard(resource) {
  const button = element('button', { type: 'button', className: 'primary', textContent: 'Install' });
  const card = element('li', { className: 'resource' }, [
    element('h2', { textContent: `${resource.name} ${resource.version}` }),
    element('p', {
      className: 'meta',
      textContent: `${TYPE_LABEL[resource.type] ?? resource.type} by ${resource.author} · ${state.numbers.format(resource.downloads)} downloads · ${sizeText(resource.sizeBytes)} · Minecraft ${resource.gameVersions.join(', ')}${resource.loaders.length > 0 ? ` · ${resource.loaders.join(', ')}` : ''}`,
    }),
    element('p', { className: 'summary', textContent: resource.summary }),
    element('div', { className: 'install' }, [button, element('progress', { max: 100, value: 0, hidden: true }), element('span', { className: 'state' })]),
  ]);
  card.dataset.resourceId = resource.id;
  button.setAttribute('aria-label', `Install ${resource.name}`);
  button.addEventListener('click', () => void install(resource, card, button));
  return card;
}

async function search() {
  // Searches overlap (a new instance chosen, then a query typed): only the latest may show.
  const asked = ++state.searches;
  const page = await callBackend(`/resources/search?${searchQuery()}`);
  if (asked !== state.searches) return;
  const pages = Math.max(1, Math.ceil(page.total / page.pageSize));
  byId('summary').textContent =
    page.total === 0 ? 'Nothing matches: try other words, or untick "Only what fits the instance".' : `${page.total} found · page ${page.page} of ${pages}`;
  byId('results').replaceChildren(...page.items.map(resourceCard));
  byId('previous').disabled = page.page <= 1;
  byId('next').disabled = page.page >= pages;
}

async function loadInstances() {
  const instances = await callBackend('/instance');
  state.instances = new Map(instances.map((instance) => [instance.id, instance]));
  const select = byId('instance');
  select.replaceChildren(...instances.map((instance) => element('option', { value: instance.id, textContent: describeInstance(instance) })));
  if (instances.length === 0) select.replaceChildren(element('option', { value: '', textContent: 'No instances' }));
}

async function main() {
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page from the launcher.');
  await api.ready;
  const [preferences] = await Promise.all([callBackend('/settings'), loadInstances()]);
  // Numbers in the launcher's own language.
  state.numbers = new Intl.NumberFormat(preferences.language);

  const again = (page) => {
    state.page = page;
    search().catch(showError);
  };
  byId('search-button').addEventListener('click', () => again(1));
  byId('query').addEventListener('keydown', (event) => {
    if (event.key === 'Enter') again(1);
  });
  byId('instance').addEventListener('change', () => again(1));
  byId('previous').addEventListener('click', () => again(state.page - 1));
  byId('next').addEventListener('click', () => again(state.page + 1));
  await search();
}

main().catch(showError);
