import type { Middleware } from 'koa';
import { PluginHostError } from '@plughost/host-sdk/core';
import { jsonBody } from '../../http/body.js';
import type { PluginDataLimits } from './data-limits.js';

/**
 * Parses the JSON body of a settings or cache write, limited to `maxValueBytes`. An oversized body
 * is 413 `BODY_TOO_LARGE` naming the limit, like every other body over its limit (decisions
 * section 4).
 */
export function pluginDataBody(limits: PluginDataLimits): Middleware {
  const parse = jsonBody(`${limits.maxValueBytes}b`);
  return async function parsePluginDataBody(ctx, next) {
    try {
      await parse(ctx, async () => {});
    } catch (error) {
      if ((error as { status?: unknown } | null)?.status === 413) {
        throw new PluginHostError('BODY_TOO_LARGE', `The request body exceeds the body size limit of ${limits.maxValueBytes} bytes`, {
          limit: 'body size',
          maximum: limits.maxValueBytes,
        });
      }
      throw error;
    }
    await next();
  };
}
