import { decodeDevServerEvent } from '@plughost/host-sdk/core';
import { HARNESS_CONFIG_ELEMENT_ID, type HarnessBuildEvent, type HarnessPageConfig } from '../page-config.js';

/** Build events as the server sent them (checked like any input); anything malformed is left out. */
export function readBuildEvents(value: unknown): HarnessBuildEvent[] {
  if (!Array.isArray(value)) return [];
  return value.flatMap((item: unknown) => {
    if (typeof item !== 'object' || item === null) return [];
    const type = (item as { type?: unknown }).type;
    const event = typeof type === 'string' ? decodeDevServerEvent(type, JSON.stringify(item)) : undefined;
    return event && event.type !== 'hello' ? [event] : [];
  });
}

/** The settings the harness server embedded in the page; safe defaults when they are missing or malformed. */
export function readPageConfig(document: Document): HarnessPageConfig {
  let value: unknown;
  try {
    value = JSON.parse(document.getElementById(HARNESS_CONFIG_ELEMENT_ID)?.textContent ?? 'null');
  } catch {
    value = null;
  }
  const fields = typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  return {
    stubUrl: typeof fields.stubUrl === 'string' ? fields.stubUrl : '(unknown)',
    mockFile: typeof fields.mockFile === 'string' ? fields.mockFile : null,
    mockKeys: Array.isArray(fields.mockKeys) ? fields.mockKeys.filter((key): key is string => typeof key === 'string') : [],
    builds: readBuildEvents(fields.builds),
  };
}
