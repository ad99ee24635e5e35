declare const __PLUGINCTL_VERSION__: string;

/** pluginctl's own version, injected from its package.json at build time. */
export const PLUGINCTL_VERSION: string = __PLUGINCTL_VERSION__;
