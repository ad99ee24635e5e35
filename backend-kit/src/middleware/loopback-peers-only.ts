import { BlockList, isIPv6 } from 'node:net';
import type { Middleware } from 'koa';
import { ErrorCode } from '@plughost/host-sdk/core';
import { ERROR_STATUS } from '../http/error-status.js';

const LOOPBACK = new BlockList();
LOOPBACK.addSubnet('127.0.0.0', 8, 'ipv4');
LOOPBACK.addAddress('::1', 'ipv6');

/** True when `address` (as a socket reports it, IPv4-mapped IPv6 included) is a loopback address. */
export function isLoopbackAddress(address: string | undefined): boolean {
  if (!address) return false;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return LOOPBACK.check(mapped, 'ipv4');
  return LOOPBACK.check(address, isIPv6(address) ? 'ipv6' : 'ipv4');
}

/** Options of {@link loopbackPeersOnly}. */
export interface LoopbackPeersOnlyOptions {
  /** Serve other machines too (the demo's `LAUNCHER_ALLOW_REMOTE_UI=1`). Default false. */
  readonly allowRemote?: boolean;
  /** What the refusal tells the remote user to change (for example the environment variable). */
  readonly hint?: string;
}

/**
 * Answers only peers on this machine: for the launcher page, which carries the API token. It looks
 * at the connection's own address, never at a header (`Host` and `X-Forwarded-For` are the
 * client's to choose), so a launcher bound to `0.0.0.0` does not hand its token to the network.
 * Others get 403 `REMOTE_PEER_NOT_ALLOWED`.
 */
export function loopbackPeersOnly(options: LoopbackPeersOnlyOptions = {}): Middleware {
  return async function refuseRemotePeers(ctx, next) {
    if (options.allowRemote !== true && !isLoopbackAddress(ctx.req.socket.remoteAddress)) {
      ctx.status = ERROR_STATUS.REMOTE_PEER_NOT_ALLOWED;
      ctx.set('Cache-Control', 'no-store');
      ctx.body = {
        error: {
          code: ErrorCode.REMOTE_PEER_NOT_ALLOWED,
          message: `This page carries the launcher's API token and is served only to this machine${options.hint ? `; ${options.hint}` : ''}`,
        },
      };
      return;
    }
    await next();
  };
}
