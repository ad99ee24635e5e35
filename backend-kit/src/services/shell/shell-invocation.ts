/** The program and arguments that run one command line. */
export interface ShellInvocation {
  readonly program: string;
  readonly args: readonly string[];
}

/**
 * `/bin/sh -c <command>`, or on Windows PowerShell without profile scripts (which may prompt or
 * be slow) and without interactive prompts (stdin is closed, so a prompt would only hang).
 */
export function shellInvocation(command: string, platform: NodeJS.Platform = process.platform): ShellInvocation {
  if (platform === 'win32') return { program: 'powershell.exe', args: ['-NoProfile', '-NonInteractive', '-Command', command] };
  return { program: '/bin/sh', args: ['-c', command] };
}
