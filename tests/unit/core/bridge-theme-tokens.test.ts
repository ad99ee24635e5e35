import { describe, expect, it } from 'vitest';
import {
  THEME_OVERRIDE_STYLE_ID,
  THEME_TOKENS,
  THEME_VALUE_PATTERN,
  buildThemeOverrideCss,
  hslTripletToHex,
  isHexColor,
  isPluginHostError,
  normalizeThemeToken,
} from '@plughost/host-sdk/core';

// Decisions section 7, written out here so a change to the source list shows up as a failure.
const DECISION_TOKENS = [
  'background',
  'foreground',
  'card',
  'card-foreground',
  'popover',
  'popover-foreground',
  'primary',
  'primary-foreground',
  'secondary',
  'secondary-foreground',
  'muted',
  'muted-foreground',
  'accent',
  'accent-foreground',
  'destructive',
  'destructive-foreground',
  'border',
  'input',
  'ring',
  'chart-1',
  'chart-2',
  'chart-3',
  'chart-4',
  'chart-5',
  'sidebar-background',
  'sidebar-foreground',
  'sidebar-primary',
  'sidebar-primary-foreground',
  'sidebar-accent',
  'sidebar-accent-foreground',
];

/** The HSL to RGB conversion by chroma and hue sector (the textbook formula), for expected values. */
function expectedHex(h: number, s: number, l: number): string {
  const chroma = (1 - Math.abs((2 * l) / 100 - 1)) * (s / 100);
  const sector = (h % 360) / 60;
  const x = chroma * (1 - Math.abs((sector % 2) - 1));
  const table: Array<[number, number, number]> = [
    [chroma, x, 0],
    [x, chroma, 0],
    [0, chroma, x],
    [0, x, chroma],
    [x, 0, chroma],
    [chroma, 0, x],
  ];
  const [r, g, b] = table[Math.floor(sector)] ?? [0, 0, 0];
  const m = l / 100 - chroma / 2;
  return `#${[r, g, b]
    .map((channel) =>
      Math.round((channel + m) * 255)
        .toString(16)
        .padStart(2, '0'),
    )
    .join('')}`;
}

function refusalMessage(vars: unknown): string {
  try {
    buildThemeOverrideCss(vars);
  } catch (error) {
    expect(isPluginHostError(error, 'INVALID_ARGUMENT')).toBe(true);
    return (error as Error).message;
  }
  throw new Error('buildThemeOverrideCss accepted the input');
}

describe('THEME_TOKENS', () => {
  it('lists the 30 tokens of decisions section 7 in order', () => {
    expect(THEME_TOKENS).toEqual(DECISION_TOKENS);
    expect(THEME_TOKENS).toHaveLength(30);
    expect(Object.isFrozen(THEME_TOKENS)).toBe(true);
  });

  it('names the style element of the override', () => {
    expect(THEME_OVERRIDE_STYLE_ID).toBe('plugin-theme-override');
  });
});

describe('normalizeThemeToken', () => {
  it.each(DECISION_TOKENS)('accepts %s in hyphen and dot naming', (token) => {
    expect(normalizeThemeToken(token)).toBe(token);
    expect(normalizeThemeToken(token.replaceAll('-', '.'))).toBe(token);
  });

  it.each([
    ['sidebar.primary', 'sidebar-primary'],
    ['chart.1', 'chart-1'],
    ['sidebar.primary.foreground', 'sidebar-primary-foreground'],
    ['sidebar.primary-foreground', 'sidebar-primary-foreground'],
  ])('%s -> %s', (name, token) => {
    expect(normalizeThemeToken(name)).toBe(token);
  });

  it.each(['Primary', 'PRIMARY', 'sidebar..primary', 'chart-6', 'chart-0', 'primary ', '--primary', 'sidebar', '', '__proto__', 'constructor', 'toString'])(
    'refuses %j',
    (name) => {
      expect(normalizeThemeToken(name)).toBeUndefined();
    },
  );
});

describe('THEME_VALUE_PATTERN', () => {
  it.each(['220 90% 56%', '0 0% 0%', '360 100% 100%', '359.9 99.5% 0.25%', '12.345 6.7% 89.01%', '0 100% 50%', '360.0 100.00% 0.0%'])('accepts %j', (value) => {
    expect(THEME_VALUE_PATTERN.test(value)).toBe(true);
  });

  it.each([
    '220 90% 56%;} body{display:none',
    '220 90% 56%;',
    '220 90% 56%}',
    '{220 90% 56%',
    '220 90% 56%<',
    'red',
    '#ff0000',
    'var(--x)',
    'url(https://evil.example/x.png)',
    '220 90% 56% !important',
    '220 90% 56%\n',
    '220 90% 56%\nbody{}',
    '\n220 90% 56%',
    ' 220 90% 56%',
    '220  90% 56%',
    '220\t90% 56%',
    '220 90 56',
    '220 90% 56',
    '220deg 90% 56%',
    '361 90% 56%',
    '360.5 90% 56%',
    '220 101% 56%',
    '220 100.5% 56%',
    '220 90% -1%',
    '-20 90% 56%',
    '+20 90% 56%',
    '220. 90% 56%',
    '.5 90% 56%',
    '0220 90% 56%',
    '220 90% 56% 0.5',
    'hsl(220 90% 56%)',
    '',
  ])('refuses %j', (value) => {
    expect(THEME_VALUE_PATTERN.test(value)).toBe(false);
  });

  it('keeps no state between tests', () => {
    expect(THEME_VALUE_PATTERN.flags).toBe('');
    expect([1, 2, 3].map(() => THEME_VALUE_PATTERN.test('220 90% 56%'))).toEqual([true, true, true]);
  });
});

describe('buildThemeOverrideCss', () => {
  it('writes one :root:root rule with --<token> properties in token order', () => {
    expect(buildThemeOverrideCss({ ring: '220 90% 56%', 'sidebar.primary': '0 0% 100%', primary: '220 90% 56%' })).toBe(
      ':root:root{--primary:220 90% 56%;--ring:220 90% 56%;--sidebar-primary:0 0% 100%;}',
    );
  });

  it('accepts all 30 tokens at once, in either naming', () => {
    const hyphen = Object.fromEntries(DECISION_TOKENS.map((token) => [token, '10 20% 30%']));
    const dot = Object.fromEntries(DECISION_TOKENS.map((token) => [token.replaceAll('-', '.'), '10 20% 30%']));
    const expected = `:root:root{${DECISION_TOKENS.map((token) => `--${token}:10 20% 30%;`).join('')}}`;
    expect(buildThemeOverrideCss(hyphen)).toBe(expected);
    expect(buildThemeOverrideCss(dot)).toBe(expected);
  });

  it.each([
    ['220 90% 56%;} body{display:none', '"primary"'],
    ['red', '"red"'],
    ['var(--x)', '"var(--x)"'],
    ['220 90% 56% !important', 'important'],
    ['220 90% 56%\n', '"primary"'],
    ['url(x)', 'url(x)'],
  ])('refuses the injection attempt %j and names it', (value, named) => {
    const message = refusalMessage({ primary: value });
    expect(message).toContain('"primary"');
    expect(message).toContain(named);
  });

  it.each([
    ['a number value', { primary: 220 }, 'a number'],
    ['a null value', { primary: null }, 'a null'],
    ['an unknown token', { primary: '1 2% 3%', 'font-family': '1 2% 3%' }, '"font-family"'],
    ['a CSS-looking token', { '--primary': '1 2% 3%' }, '"--primary"'],
    ['an upper-case token', { Primary: '1 2% 3%' }, '"Primary"'],
    ['a __proto__ key', JSON.parse('{"__proto__": "1 2% 3%"}') as unknown, '"__proto__"'],
    ['both namings of one token', { 'sidebar.primary': '1 2% 3%', 'sidebar-primary': '1 2% 3%' }, 'given twice'],
    ['no entries', {}, 'at least one'],
    ['an array', ['1 2% 3%'], 'vars must be an object'],
    ['a string', 'primary: 1 2% 3%', 'vars must be an object'],
    ['null', null, 'vars must be an object'],
    ['a function value', { primary: () => '1 2% 3%' }, 'vars.primary is a function'],
  ])('refuses %s', (_label, vars, fragment) => {
    expect(refusalMessage(vars)).toContain(fragment);
  });

  it('refuses more than 30 entries', () => {
    const vars = Object.fromEntries(Array.from({ length: 31 }, (_unused, index) => [`x${index}`, '1 2% 3%']));
    expect(refusalMessage(vars)).toContain('31 entries');
  });

  it('does not invoke a getter of the vars object', () => {
    let calls = 0;
    const vars = {
      get primary(): string {
        calls += 1;
        return '1 2% 3%';
      },
    };
    expect(refusalMessage(vars)).toContain('getter');
    expect(calls).toBe(0);
  });
});

describe('hslTripletToHex', () => {
  it.each([
    ['0 0% 100%', '#ffffff'],
    ['0 0% 0%', '#000000'],
    ['0 100% 50%', '#ff0000'],
    ['120 100% 25%', '#008000'],
    ['240 100% 50%', '#0000ff'],
    ['360 100% 50%', '#ff0000'],
    ['220 90% 56%', '#2a6df4'],
  ])('%s -> %s (known colours)', (triplet, hex) => {
    expect(hslTripletToHex(triplet)).toBe(hex);
  });

  it.each([
    [220, 90, 56],
    [0, 72.2, 50.6],
    [24.6, 95, 53.1],
    [142.1, 76.2, 36.3],
    [262.1, 83.3, 57.8],
    [47.9, 95.8, 53.1],
    [346.8, 77.2, 49.8],
    [199, 89, 48],
    [300, 50, 75],
    [60, 33, 10],
    [180, 10, 90],
    [210, 40, 96.1],
  ])('%s %s% %s% agrees with the chroma formula', (h, s, l) => {
    expect(hslTripletToHex(`${h} ${s}% ${l}%`)).toBe(expectedHex(h, s, l));
  });

  it('ignores surrounding whitespace and refuses what is not a theme value', () => {
    expect(hslTripletToHex('  0 100% 50%\n')).toBe('#ff0000');
    expect(hslTripletToHex('red')).toBeUndefined();
    expect(hslTripletToHex('hsl(0 100% 50%)')).toBeUndefined();
    expect(hslTripletToHex('0 100% 50%; x')).toBeUndefined();
  });
});

describe('isHexColor', () => {
  it.each(['#ffffff', '#2a6df4', '#ABCDEF', '#000000'])('accepts %j', (value) => {
    expect(isHexColor(value)).toBe(true);
  });

  it.each(['ffffff', '#fff', '#fffffff', '#gggggg', '#ffffff\n', ' #ffffff', 'red', null, 0xffffff])('refuses %j', (value) => {
    expect(isHexColor(value)).toBe(false);
  });
});
