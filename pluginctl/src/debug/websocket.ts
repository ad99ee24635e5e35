import { createHash, randomBytes } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { request } from 'node:http';
import type { Socket } from 'node:net';

// A minimal RFC 6455 client, enough for the Chrome DevTools Protocol on loopback: text frames,
// masking, fragmentation, ping/pong and close. Node 20 has `WebSocket` only behind
// `--experimental-websocket`, and pluginctl ships with no runtime dependencies.

const GUID = '258EAFA5-E914-47DA-95CA-C5AB0DC85B11';

/** Events: `message` (text), `close`, `error`. */
export class WebSocketClient extends EventEmitter {
  private buffer: Buffer = Buffer.alloc(0);
  private fragments: Buffer[] = [];
  private closed = false;

  private constructor(private readonly socket: Socket) {
    super();
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    socket.on('close', () => this.finish());
    socket.on('error', (error) => this.emit('error', error));
  }

  /** Opens `url` (`ws://` only: DevTools listens on loopback without TLS). */
  static connect(url: string, timeoutMs = 10_000): Promise<WebSocketClient> {
    const target = new URL(url);
    if (target.protocol !== 'ws:') return Promise.reject(new Error(`Only ws:// URLs are supported, got ${url}`));
    const key = randomBytes(16).toString('base64');
    return new Promise((resolve, reject) => {
      const req = request({
        host: target.hostname.replace(/^\[|\]$/g, ''),
        port: target.port || 80,
        path: `${target.pathname}${target.search}`,
        headers: { Connection: 'Upgrade', Upgrade: 'websocket', 'Sec-WebSocket-Version': '13', 'Sec-WebSocket-Key': key },
        timeout: timeoutMs,
      });
      req.on('timeout', () => req.destroy(new Error(`WebSocket handshake with ${url} timed out`)));
      req.on('error', reject);
      req.on('response', (res) => {
        res.resume();
        reject(new Error(`WebSocket handshake with ${url} answered HTTP ${res.statusCode}`));
      });
      req.on('upgrade', (res, socket, head) => {
        const expected = createHash('sha1')
          .update(key + GUID)
          .digest('base64');
        if (res.headers['sec-websocket-accept'] !== expected) {
          socket.destroy();
          reject(new Error(`WebSocket handshake with ${url} returned a wrong Sec-WebSocket-Accept`));
          return;
        }
        socket.setNoDelay(true);
        const client = new WebSocketClient(socket);
        if (head.length > 0) client.receive(head);
        resolve(client);
      });
      req.end();
    });
  }

  /** Sends one text message. */
  send(text: string): void {
    this.sendFrame(0x1, Buffer.from(text, 'utf8'));
  }

  /** Closes the connection (close frame, then the socket). */
  close(): void {
    if (this.closed) return;
    this.sendFrame(0x8, Buffer.alloc(0));
    this.socket.end();
  }

  private sendFrame(opcode: number, payload: Buffer): void {
    if (this.closed || this.socket.destroyed) return;
    const length = payload.length;
    const header = length < 126 ? Buffer.alloc(2) : length < 65_536 ? Buffer.alloc(4) : Buffer.alloc(10);
    header[0] = 0x80 | opcode;
    if (length < 126) header[1] = 0x80 | length;
    else if (length < 65_536) {
      header[1] = 0x80 | 126;
      header.writeUInt16BE(length, 2);
    } else {
      header[1] = 0x80 | 127;
      header.writeBigUInt64BE(BigInt(length), 2);
    }
    // Clients must mask every frame (RFC 6455 section 5.3).
    const mask = randomBytes(4);
    const masked = Buffer.alloc(length);
    for (let index = 0; index < length; index += 1) masked[index] = (payload[index] ?? 0) ^ (mask[index & 3] ?? 0);
    this.socket.write(Buffer.concat([header, mask, masked]));
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    for (;;) {
      if (this.buffer.length < 2) return;
      const first = this.buffer[0] ?? 0;
      const second = this.buffer[1] ?? 0;
      let length = second & 0x7f;
      let offset = 2;
      if (length === 126) {
        if (this.buffer.length < 4) return;
        length = this.buffer.readUInt16BE(2);
        offset = 4;
      } else if (length === 127) {
        if (this.buffer.length < 10) return;
        length = Number(this.buffer.readBigUInt64BE(2));
        offset = 10;
      }
      const masked = (second & 0x80) !== 0;
      const maskOffset = offset;
      if (masked) offset += 4;
      if (this.buffer.length < offset + length) return;
      let payload = this.buffer.subarray(offset, offset + length);
      if (masked) {
        const mask = this.buffer.subarray(maskOffset, maskOffset + 4);
        payload = Buffer.from(payload.map((byte, index) => byte ^ (mask[index & 3] ?? 0)));
      }
      this.buffer = this.buffer.subarray(offset + length);
      this.handleFrame((first & 0x80) !== 0, first & 0x0f, payload);
    }
  }

  private handleFrame(fin: boolean, opcode: number, payload: Buffer): void {
    if (opcode === 0x9) this.sendFrame(0xa, payload);
    else if (opcode === 0x8) {
      this.sendFrame(0x8, Buffer.alloc(0));
      this.socket.end();
    } else if (opcode === 0x1 || opcode === 0x2 || opcode === 0x0) {
      this.fragments.push(Buffer.from(payload));
      if (fin) {
        const message = Buffer.concat(this.fragments).toString('utf8');
        this.fragments = [];
        this.emit('message', message);
      }
    }
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    this.emit('close');
  }
}
