// The debug harness's sample plugin: settings read and written, a toast, a menu item, and one call
// without its permission, whose refusal the page shows as the bridge gives it.

/** The text of a refused call: the bridge's message, with its code when it has one. */
function describeError(error) {
  const message = typeof error?.message === 'string' ? error.message : String(error);
  return typeof error?.code === 'string' ? `${message} (${error.code})` : message;
}

function showGreeting(settings) {
  const greeting = typeof settings?.greeting === 'string' ? settings.greeting : '(not set)';
  document.getElementById('greeting').textContent = greeting;
}

async function main() {
  const api = window.__PLUGIN_API__;
  if (!api) throw new Error('window.__PLUGIN_API__ is missing: open this page in the harness or a launcher.');
  await api.ready;

  // config:read and config:write. The frame has no allow-forms, so a form would never submit:
  // the button's click and Enter in the field save.
  const input = document.getElementById('greeting-input');
  const save = document.getElementById('save');
  const saveGreeting = () => {
    const value = input.value.trim();
    if (value === '') return;
    api.call('setSettings', 'greeting', value).then(showGreeting, (error) => {
      document.getElementById('greeting').textContent = describeError(error);
    });
  };
  save.addEventListener('click', saveGreeting);
  input.addEventListener('keydown', (event) => {
    if (event.key === 'Enter' && !event.isComposing) saveGreeting();
  });
  save.disabled = false;
  api.call('getSettings').then(showGreeting, (error) => {
    document.getElementById('greeting').textContent = describeError(error);
  });

  // ui:toast
  const toast = document.getElementById('toast');
  toast.addEventListener('click', () => {
    api.call('showToast', 'Hello from the harness sample!', 'success').catch((error) => {
      toast.after(` ${describeError(error)}`);
    });
  });
  toast.disabled = false;

  // A sidebar item added at run time (no permission needed).
  api
    .addMenuItem({
      id: 'wave',
      label: 'Wave from the sample',
      onClick: () => api.call('showToast', 'The sample waves back.', 'info'),
    })
    .then(
      () => {
        document.getElementById('menu-state').textContent = 'Added: look for “Wave from the sample” in the sidebar.';
      },
      (error) => {
        document.getElementById('menu-state').textContent = describeError(error);
      },
    );

  // system:info is not in the manifest: the bridge refuses the call.
  api.call('getSystemInfo').then(
    () => {
      document.getElementById('permission-error').textContent = 'Unexpected: getSystemInfo answered without system:info.';
    },
    (error) => {
      document.getElementById('permission-error').textContent = describeError(error);
    },
  );
}

main().catch((error) => {
  document.getElementById('permission-error').textContent = describeError(error);
});
