/** A wait for Ctrl-C (SIGINT) or SIGTERM. */
export interface StopSignal {
  /** Resolves with the signal's name when one arrives. */
  readonly signalled: Promise<NodeJS.Signals>;
  /** Stops listening, so the signals have their default effect again. */
  dispose(): void;
}

/**
 * Listens for SIGINT and SIGTERM from now on (`pluginctl dev`, `pluginctl debug`). While it
 * listens, neither ends the process: the caller closes what it started (a dev server removes its
 * `.dev-plugins.json` entry, debug stops the launcher and the browser) and returns.
 */
export function listenForStopSignal(): StopSignal {
  let dispose = (): void => undefined;
  const signalled = new Promise<NodeJS.Signals>((resolve) => {
    const onSignal = (signal: NodeJS.Signals): void => resolve(signal);
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
    dispose = () => {
      process.off('SIGINT', onSignal);
      process.off('SIGTERM', onSignal);
    };
  });
  return { signalled, dispose };
}
