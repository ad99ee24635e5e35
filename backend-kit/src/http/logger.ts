/** Where the backend writes its log. Any console-like object fits (`console`, pino, winston). */
export interface BackendLogger {
  info(message: string, fields?: Readonly<Record<string, unknown>>): void;
  warn(message: string, fields?: Readonly<Record<string, unknown>>): void;
  error(message: string, fields?: Readonly<Record<string, unknown>>): void;
}

/** A logger that writes one line per message to stderr, fields as JSON. */
export const consoleLogger: BackendLogger = {
  info: (message, fields) => console.error(`[backend] ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  warn: (message, fields) => console.error(`[backend] warning: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
  error: (message, fields) => console.error(`[backend] error: ${message}${fields ? ` ${JSON.stringify(fields)}` : ''}`),
};

/** A logger that drops everything (tests, embedding without logs). */
export const silentLogger: BackendLogger = { info: () => {}, warn: () => {}, error: () => {} };
