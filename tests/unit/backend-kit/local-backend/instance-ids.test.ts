import { describe, expect, it } from 'vitest';
import { instanceIdFor } from '../../../../backend-kit/src/services/instances/instance-store.js';

describe('instance ids', () => {
  it('are made from the name (decomposed, lower-case, dashed, at most 40 characters) and six random hex digits', () => {
    expect(instanceIdFor('My Pack 1.20')).toMatch(/^my-pack-1-20-[0-9a-f]{6}$/);
    expect(instanceIdFor('Café')).toMatch(/^cafe-[0-9a-f]{6}$/);
    expect(instanceIdFor('!!!')).toMatch(/^instance-[0-9a-f]{6}$/);
    expect(instanceIdFor('x'.repeat(60))).toMatch(/^x{40}-[0-9a-f]{6}$/);
  });
});
