import { describe, expect, it } from 'vitest';
import { isPluginHostError } from '@plughost/host-sdk/core';
import { takeBootValues } from '../../../host-sdk/src/boot-values.js';

const NAME = '__TEST_LAUNCHER_BOOT__';

describe('takeBootValues', () => {
  it('returns the values and deletes the global, as the demo page defines it (configurable property)', () => {
    const page: Record<string, unknown> = {};
    Object.defineProperty(page, NAME, { value: { token: 't0ken', backendUrl: 'http://127.0.0.1:1' }, configurable: true });
    const boot = takeBootValues(NAME, page);
    expect(boot).toEqual({ token: 't0ken', backendUrl: 'http://127.0.0.1:1' });
    expect(NAME in page).toBe(false);
    expect(Object.isFrozen(boot)).toBe(true);
  });

  it('takes a plain assignment on globalThis by default', () => {
    (globalThis as Record<string, unknown>)[NAME] = { token: 'abc' };
    expect(takeBootValues(NAME)).toEqual({ token: 'abc' });
    expect(NAME in globalThis).toBe(false);
  });

  it('gives an empty object when the page set nothing', () => {
    expect(takeBootValues(NAME, {})).toEqual({});
  });

  it('refuses a global it cannot delete (a classic script `var`), naming it', () => {
    const page: Record<string, unknown> = {};
    Object.defineProperty(page, NAME, { value: { token: 'abc' }, configurable: false, enumerable: true });
    let caught: unknown;
    try {
      takeBootValues(NAME, page);
    } catch (error) {
      caught = error;
    }
    expect(isPluginHostError(caught, 'INVALID_ARGUMENT')).toBe(true);
    expect((caught as Error).message).toContain(`window.${NAME} = {...}`);
  });

  it('deletes a value that is not an object before refusing it', () => {
    const page: Record<string, unknown> = { [NAME]: 'just-a-token' };
    expect(() => takeBootValues(NAME, page)).toThrow(/holds a string, not an object/);
    expect(NAME in page).toBe(false);
  });
});
