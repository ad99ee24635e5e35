/**
 * Variables never passed to a child process: the launcher's own configuration and secrets
 * (`LAUNCHER_API_TOKEN` would let the child call every protected route, including
 * `/authorize`), the CLI's and the registry's credentials, and the root keys
 * (`PLUGIN_ROOT_PUBLIC_KEY`, `REGISTRY_ROOT_PRIVATE_KEY`).
 */
const SECRET_NAME = /^(LAUNCHER_|PLUGINCTL_|REGISTRY_|PLUGIN_ROOT_)/i;

/**
 * The one environment of every child process the backend starts (plugin shell commands, the URL
 * opener, helper programs): the backend's own, minus every variable whose name marks it as the
 * launcher's, the CLI's or the registry's, and minus every variable whose value contains one of
 * `secrets` (the API token may also sit under a vendor's own variable name). Decisions section 2:
 * no child process gets launcher secrets.
 *
 * @param secrets - values to keep out wherever they appear (empty strings are ignored).
 */
export function childEnvironment(source: NodeJS.ProcessEnv = process.env, secrets: readonly (string | undefined)[] = []): NodeJS.ProcessEnv {
  const hidden = secrets.filter((secret): secret is string => secret !== undefined && secret !== '');
  const environment: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(source)) {
    if (value === undefined || SECRET_NAME.test(name)) continue;
    if (hidden.some((secret) => value.includes(secret))) continue;
    environment[name] = value;
  }
  return environment;
}
