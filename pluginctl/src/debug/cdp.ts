import { EventEmitter } from 'node:events';
import { WebSocketClient } from './websocket.js';

/** One protocol event: its method, parameters and the flattened session it came from. */
export interface CdpEvent {
  method: string;
  params: Record<string, unknown>;
  sessionId: string | undefined;
}

interface Pending {
  resolve: (result: Record<string, unknown>) => void;
  reject: (error: Error) => void;
}

/**
 * A Chrome DevTools Protocol connection to the browser target, with flattened sessions
 * (`Target.attachToTarget({flatten: true})`): every command and event carries its `sessionId`.
 * Events are emitted as `event` ({@link CdpEvent}); `close` when the browser goes away.
 */
export class CdpConnection extends EventEmitter {
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  private constructor(private readonly socket: WebSocketClient) {
    super();
    socket.on('message', (text: string) => this.receive(text));
    socket.on('close', () => {
      for (const waiter of this.pending.values()) waiter.reject(new Error('The browser closed the DevTools connection'));
      this.pending.clear();
      this.emit('close');
    });
    socket.on('error', () => {
      // `close` follows; the error itself says nothing the user can act on.
    });
  }

  /** Connects to a browser's `webSocketDebuggerUrl`. */
  static async connect(url: string): Promise<CdpConnection> {
    return new CdpConnection(await WebSocketClient.connect(url));
  }

  /** Sends a command (to `sessionId` when given) and resolves with its result. */
  send(method: string, params: Record<string, unknown> = {}, sessionId?: string): Promise<Record<string, unknown>> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject });
      this.socket.send(JSON.stringify(sessionId ? { id, method, params, sessionId } : { id, method, params }));
    });
  }

  close(): void {
    this.socket.close();
  }

  private receive(text: string): void {
    let message: {
      id?: number;
      method?: string;
      params?: Record<string, unknown>;
      result?: Record<string, unknown>;
      error?: { message?: string };
      sessionId?: string;
    };
    try {
      message = JSON.parse(text) as typeof message;
    } catch {
      return;
    }
    if (typeof message.id === 'number') {
      const waiter = this.pending.get(message.id);
      this.pending.delete(message.id);
      if (!waiter) return;
      if (message.error) waiter.reject(new Error(message.error.message ?? 'DevTools command failed'));
      else waiter.resolve(message.result ?? {});
    } else if (typeof message.method === 'string') {
      const event: CdpEvent = { method: message.method, params: message.params ?? {}, sessionId: message.sessionId };
      this.emit('event', event);
    }
  }
}
