// Configuration of the custom elements manifest (`npm run build` runs the analyzer here).
export default {
  globs: ['src/**/*.ts'],
  litelement: true,
  plugins: [
    {
      // Events are documented with @fires; the analyzer also picks up `dispatchEvent(new CustomEvent(type))`
      // inside helper methods, whose variable names (`type`, `name`) are not events.
      name: 'documented-events-only',
      packageLinkPhase({ customElementsManifest }) {
        for (const module of customElementsManifest.modules) {
          for (const declaration of module.declarations ?? []) {
            if (Array.isArray(declaration.events)) {
              declaration.events = declaration.events.filter((event) => typeof event.name === 'string' && /^(plugin|launcher)-[a-z-]+$/.test(event.name));
            }
          }
        }
      },
    },
  ],
};
