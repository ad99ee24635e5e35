import { describe, expect, it } from 'vitest';
import { planActivation, type ActivationCandidate } from '@plughost/host-sdk/core';

const plugin = (id: string, version = '1.0.0', dependencies?: ActivationCandidate['dependencies']): ActivationCandidate => ({
  id,
  version,
  ...(dependencies !== undefined && { dependencies }),
});

describe('planActivation', () => {
  it('activates dependencies before dependants', () => {
    const plan = planActivation([
      plugin('com.x.app', '1.0.0', { 'com.x.ui': '^2.0.0', 'com.x.core': '^1.0.0' }),
      plugin('com.x.ui', '2.3.0', { 'com.x.core': '>=1.0.0' }),
      plugin('com.x.core', '1.4.0'),
    ]);
    expect(plan).toEqual({ order: ['com.x.core', 'com.x.ui', 'com.x.app'], skipped: [], cycles: [], warnings: [] });
  });

  it('keeps the input order where dependencies allow it', () => {
    const ids = ['com.x.e', 'com.x.d', 'com.x.c', 'com.x.b', 'com.x.a'];
    expect(planActivation(ids.map((id) => plugin(id))).order).toEqual(ids);
    expect(
      planActivation([plugin('com.x.a'), plugin('com.x.b', '1.0.0', { 'com.x.d': '*' }), plugin('com.x.c'), plugin('com.x.d'), plugin('com.x.e')]).order,
    ).toEqual(['com.x.a', 'com.x.c', 'com.x.d', 'com.x.b', 'com.x.e']);
  });

  it('is deterministic', () => {
    const input = [
      plugin('com.x.a', '1.0.0', { 'com.x.c': '*' }),
      plugin('com.x.b', '1.0.0', { 'com.x.c': '*', 'com.x.missing': '*' }),
      plugin('com.x.c'),
      plugin('com.x.d', '1.0.0', { 'com.x.e': '*' }),
      plugin('com.x.e', '1.0.0', { 'com.x.d': '*' }),
    ];
    const first = planActivation(input);
    for (let run = 0; run < 5; run += 1) expect(planActivation(input)).toEqual(first);
  });

  it('skips a plugin whose required dependency is missing, naming id and range', () => {
    const plan = planActivation([plugin('com.x.app', '1.0.0', { 'com.x.core': '^1.2.0' }), plugin('com.x.other')]);
    expect(plan.order).toEqual(['com.x.other']);
    expect(plan.skipped).toEqual([
      {
        id: 'com.x.app',
        reason: 'dependency-missing',
        dependency: 'com.x.core',
        range: '^1.2.0',
        message: expect.stringMatching(/com\.x\.app requires com\.x\.core \(\^1\.2\.0\), which is not installed/),
      },
    ]);
  });

  it('skips a plugin whose required dependency has the wrong version', () => {
    const plan = planActivation([plugin('com.x.core', '2.0.0'), plugin('com.x.app', '1.0.0', { 'com.x.core': '^1.2.0' })]);
    expect(plan.order).toEqual(['com.x.core']);
    expect(plan.skipped).toEqual([
      {
        id: 'com.x.app',
        reason: 'dependency-version',
        dependency: 'com.x.core',
        range: '^1.2.0',
        message: expect.stringContaining('version 2.0.0 is installed'),
      },
    ]);
  });

  it('matches pre-release versions against ranges', () => {
    const plan = planActivation([plugin('com.x.core', '1.3.0-beta.2'), plugin('com.x.app', '1.0.0', { 'com.x.core': '^1.2.0' })]);
    expect(plan.order).toEqual(['com.x.core', 'com.x.app']);
  });

  it('treats an invalid range as unsatisfied', () => {
    const plan = planActivation([plugin('com.x.core'), plugin('com.x.app', '1.0.0', { 'com.x.core': 'newest' })]);
    expect(plan.skipped).toEqual([
      { id: 'com.x.app', reason: 'dependency-version', dependency: 'com.x.core', range: 'newest', message: expect.stringContaining('invalid range') },
    ]);
  });

  it('reports the first unmet dependency in declaration order', () => {
    const plan = planActivation([plugin('com.x.core', '0.1.0'), plugin('com.x.app', '1.0.0', { 'com.x.core': '^1.0.0', 'com.x.gone': '*' })]);
    expect(plan.skipped[0]).toMatchObject({ reason: 'dependency-version', dependency: 'com.x.core' });
  });

  it('skips dependants of skipped plugins transitively', () => {
    const plan = planActivation([
      plugin('com.x.top', '1.0.0', { 'com.x.mid': '*' }),
      plugin('com.x.mid', '1.0.0', { 'com.x.base': '*' }),
      plugin('com.x.base', '1.0.0', { 'com.x.missing': '^1.0.0' }),
      plugin('com.x.free'),
    ]);
    expect(plan.order).toEqual(['com.x.free']);
    expect(plan.skipped).toEqual([
      { id: 'com.x.top', reason: 'dependency-skipped', dependency: 'com.x.mid', range: '*', message: expect.stringContaining('which is skipped') },
      { id: 'com.x.mid', reason: 'dependency-skipped', dependency: 'com.x.base', range: '*', message: expect.any(String) },
      { id: 'com.x.base', reason: 'dependency-missing', dependency: 'com.x.missing', range: '^1.0.0', message: expect.any(String) },
    ]);
  });

  it('orders after an optional dependency that is present', () => {
    const plan = planActivation([plugin('com.x.app', '1.0.0', { 'com.x.charts': { range: '^2.0.0', optional: true } }), plugin('com.x.charts', '2.1.0')]);
    expect(plan).toEqual({ order: ['com.x.charts', 'com.x.app'], skipped: [], cycles: [], warnings: [] });
  });

  it('ignores an absent optional dependency', () => {
    const plan = planActivation([plugin('com.x.app', '1.0.0', { 'com.x.charts': { range: '^2.0.0', optional: true } })]);
    expect(plan).toEqual({ order: ['com.x.app'], skipped: [], cycles: [], warnings: [] });
  });

  it('activates the dependant with a warning when an optional dependency has the wrong version', () => {
    const plan = planActivation([plugin('com.x.app', '1.0.0', { 'com.x.charts': { range: '^2.0.0', optional: true } }), plugin('com.x.charts', '1.0.0')]);
    expect(plan.order).toEqual(['com.x.app', 'com.x.charts']);
    expect(plan.skipped).toEqual([]);
    expect(plan.warnings).toEqual([
      { id: 'com.x.app', dependency: 'com.x.charts', range: '^2.0.0', message: expect.stringContaining('version 1.0.0 does not satisfy') },
    ]);
  });

  it('activates the dependant with a warning when an optional dependency is skipped', () => {
    const plan = planActivation([
      plugin('com.x.charts', '2.0.0', { 'com.x.missing': '*' }),
      plugin('com.x.app', '1.0.0', { 'com.x.charts': { range: '*', optional: true } }),
    ]);
    expect(plan.order).toEqual(['com.x.app']);
    expect(plan.skipped.map((entry) => entry.id)).toEqual(['com.x.charts']);
    expect(plan.warnings).toEqual([{ id: 'com.x.app', dependency: 'com.x.charts', range: '*', message: expect.stringContaining('not activated') }]);
  });

  it('reports cycles and skips every member and their dependants', () => {
    const plan = planActivation([
      plugin('com.x.free'),
      plugin('com.x.c', '1.0.0', { 'com.x.a': '*' }),
      plugin('com.x.a', '1.0.0', { 'com.x.b': '*' }),
      plugin('com.x.b', '1.0.0', { 'com.x.c': '*' }),
      plugin('com.x.user', '1.0.0', { 'com.x.a': '*' }),
      plugin('com.x.self', '1.0.0', { 'com.x.self': '*' }),
    ]);
    expect(plan.order).toEqual(['com.x.free']);
    expect(plan.cycles).toEqual([['com.x.c', 'com.x.a', 'com.x.b'], ['com.x.self']]);
    expect(plan.skipped.map((entry) => [entry.id, entry.reason])).toEqual([
      ['com.x.c', 'cycle'],
      ['com.x.a', 'cycle'],
      ['com.x.b', 'cycle'],
      ['com.x.user', 'dependency-skipped'],
      ['com.x.self', 'cycle'],
    ]);
    expect(plan.skipped[0]?.message).toContain('dependency cycle among com.x.c, com.x.a, com.x.b');
  });

  it('reports two separate cycles separately', () => {
    const plan = planActivation([
      plugin('com.x.a', '1.0.0', { 'com.x.b': '*' }),
      plugin('com.x.c', '1.0.0', { 'com.x.d': '*' }),
      plugin('com.x.b', '1.0.0', { 'com.x.a': '*' }),
      plugin('com.x.d', '1.0.0', { 'com.x.c': '*' }),
    ]);
    expect(plan.cycles).toEqual([
      ['com.x.a', 'com.x.b'],
      ['com.x.c', 'com.x.d'],
    ]);
  });

  it('does not count an unsatisfied edge as a cycle', () => {
    const plan = planActivation([plugin('com.x.a', '1.0.0', { 'com.x.b': '^2.0.0' }), plugin('com.x.b', '1.0.0', { 'com.x.a': '*' })]);
    expect(plan.cycles).toEqual([]);
    expect(plan.skipped.map((entry) => [entry.id, entry.reason])).toEqual([
      ['com.x.a', 'dependency-version'],
      ['com.x.b', 'dependency-skipped'],
    ]);
  });

  it('drops an optional ordering that would close a cycle, with a warning', () => {
    const plan = planActivation([plugin('com.x.a', '1.0.0', { 'com.x.b': '*' }), plugin('com.x.b', '1.0.0', { 'com.x.a': { range: '*', optional: true } })]);
    expect(plan.order).toEqual(['com.x.b', 'com.x.a']);
    expect(plan.cycles).toEqual([]);
    expect(plan.warnings).toEqual([{ id: 'com.x.b', dependency: 'com.x.a', range: '*', message: expect.stringContaining('close a dependency cycle') }]);
  });

  it('skips a repeated id, keeping the first', () => {
    const plan = planActivation([plugin('com.x.a', '1.0.0'), plugin('com.x.b', '1.0.0', { 'com.x.a': '^1.0.0' }), plugin('com.x.a', '2.0.0')]);
    expect(plan.order).toEqual(['com.x.a', 'com.x.b']);
    expect(plan.skipped).toEqual([{ id: 'com.x.a', reason: 'duplicate', message: expect.stringContaining('more than once') }]);
  });

  it('handles an empty list and long chains', () => {
    expect(planActivation([])).toEqual({ order: [], skipped: [], cycles: [], warnings: [] });
    const chain = Array.from({ length: 300 }, (_, index) =>
      plugin(`com.x.p${index}`, '1.0.0', index === 0 ? undefined : { [`com.x.p${index - 1}`]: '*' }),
    ).reverse();
    expect(planActivation(chain).order).toEqual(chain.map((entry) => entry.id).reverse());
  });
});
