/**
 * Variables never passed to a plugin's command: the launcher's own configuration and secrets
 * (`LAUNCHER_API_TOKEN` would let the command call every protected route, including
 * `/authorize`), the CLI's and the registry's credentials and keys.
 */
const SECRET_NAME = /^(LAUNCHER_|PLUGINCTL_|REGISTRY_|PLUGIN_ROOT_)/i;

/**
 * The environment of a plugin's command: the backend's own, minus every variable whose name
 * marks it as the launcher's, the CLI's or the registry's, and minus every variable whose value
 * contains `token` (the API token may also sit under a vendor's own variable name).
 */
export function shellEnvironment(source: NodeJS.ProcessEnv, token: string | undefined): NodeJS.ProcessEnv {
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    if (token !== undefined && token !== '' && value.includes(token)) continue;
    environment[name] = value;
  }
  return environment;
}
