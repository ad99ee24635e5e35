/**
 * Keeps docs/bridge.md in step with the bridge method table: every method of `BRIDGE_METHODS` has
 * a `### \`<name>\`` section and an index row with the same permission and call style, in the same
 * order, and the page names no method (in headings, the index or its examples) that does not exist.
 */
import { expect } from '@open-wc/testing';
import { BRIDGE_METHODS } from '@plughost/host-sdk';

/** Members of `__PLUGIN_API__` the guest runtime answers itself (the `PluginApi` type; not in the method table). */
const RUNTIME_MEMBERS = ['call', 'ready', 'pluginId', 'on', 'off', 'runtimeVersion', 'protocolVersion'];

interface IndexRow {
  readonly name: string;
  readonly permission: string;
  readonly via: string;
}

interface MethodSection {
  readonly name: string;
  readonly body: string;
}

let doc: string;

before(async () => {
  const response = await fetch('/docs/bridge.md');
  expect(response.ok, 'docs/bridge.md is served').to.equal(true);
  doc = await response.text();
});

/** The lines of `doc` outside fenced code blocks, with their text. */
function proseLines(): string[] {
  const lines: string[] = [];
  let fenced = false;
  for (const line of doc.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced;
    else if (!fenced) lines.push(line);
  }
  return lines;
}

/** The text of the `## <title>` section, up to the next `## ` heading. */
function h2Section(title: string): string {
  const lines = proseLines();
  const start = lines.indexOf(`## ${title}`);
  expect(start, `a "## ${title}" section`).to.not.equal(-1);
  const end = lines.findIndex((line, index) => index > start && line.startsWith('## '));
  return lines.slice(start + 1, end === -1 ? undefined : end).join('\n');
}

/** The rows of the method index table: `| \`name\` | \`permission\` or none | \`call\` or direct |`. */
function indexRows(): IndexRow[] {
  const rows: IndexRow[] = [];
  for (const line of h2Section('Method index').split('\n')) {
    const cells = line
      .split('|')
      .slice(1, -1)
      .map((cell) => cell.trim());
    const name = /^`([^`]+)`$/.exec(cells[0] ?? '')?.[1];
    if (!name || cells.length !== 3) continue;
    rows.push({ name, permission: (cells[1] ?? '').replaceAll('`', ''), via: (cells[2] ?? '').replaceAll('`', '') });
  }
  return rows;
}

/** Every `### \`<name>\`` section of the page, in order, with the text up to the next heading. */
function methodSections(): MethodSection[] {
  const sections: MethodSection[] = [];
  let current: { name: string; lines: string[] } | undefined;
  for (const line of proseLines()) {
    const heading = /^### `([^`]+)`\s*$/.exec(line);
    if (heading || line.startsWith('## ') || line.startsWith('### ')) {
      if (current) sections.push({ name: current.name, body: current.lines.join('\n') });
      current = heading ? { name: heading[1] ?? '', lines: [] } : undefined;
    } else {
      current?.lines.push(line);
    }
  }
  if (current) sections.push({ name: current.name, body: current.lines.join('\n') });
  return sections;
}

const permissionText = (permission: string | null): string => permission ?? 'none';
const viaText = (direct: boolean | undefined): string => (direct ? 'direct' : 'call');

describe('docs/bridge.md', () => {
  it('has a "### `<name>`" section for every bridge method, once, and none for a method that does not exist', () => {
    const names = BRIDGE_METHODS.map((method) => method.name);
    const headings = methodSections().map((section) => section.name);
    for (const name of names)
      expect(
        headings.filter((heading) => heading === name),
        `sections of ${name}`,
      ).to.have.length(1);
    expect(
      headings.filter((heading) => !names.includes(heading)),
      'sections of unknown methods',
    ).to.deep.equal([]);
  });

  it('has an index row per method naming its permission (or none) and how it is reached', () => {
    const rows = indexRows();
    for (const method of BRIDGE_METHODS) {
      const matching = rows.filter((row) => row.name === method.name);
      expect(matching, `index rows of ${method.name}`).to.have.length(1);
      expect(matching[0]?.permission, `permission of ${method.name}`).to.equal(permissionText(method.permission));
      expect(matching[0]?.via, `how ${method.name} is reached`).to.equal(viaText(method.direct));
    }
    const known = new Set(BRIDGE_METHODS.map((method) => method.name));
    expect(
      rows.filter((row) => !known.has(row.name)).map((row) => row.name),
      'index rows of unknown methods',
    ).to.deep.equal([]);
  });

  it('documents the methods in the order of the index, each section opening with its permission', () => {
    const sections = methodSections();
    expect(sections.map((section) => section.name)).to.deep.equal(indexRows().map((row) => row.name));
    for (const method of BRIDGE_METHODS) {
      const section = sections.find((candidate) => candidate.name === method.name);
      const permission = method.permission === null ? 'none' : `\`${method.permission}\``;
      const expected = `**Permission** ${permission} · ${method.direct ? 'direct' : '`call`'}`;
      expect(section?.body.trim().split('\n')[0], `first line of the ${method.name} section`).to.equal(expected);
    }
  });

  it('names no method that does not exist in its prose or examples', () => {
    const callable = new Set(BRIDGE_METHODS.filter((method) => !method.direct).map((method) => method.name));
    const members = new Set([...BRIDGE_METHODS.filter((method) => method.direct).map((method) => method.name), ...RUNTIME_MEMBERS]);
    const calls = [...doc.matchAll(/\bcall\(\s*['"]([\w.$:-]+)['"]/g)].map((match) => match[1] ?? '');
    const used = [...doc.matchAll(/__PLUGIN_API__\.([A-Za-z_$][\w$]*)/g)].map((match) => match[1] ?? '');
    expect(calls.length, 'examples using call()').to.be.greaterThan(20);
    expect(
      calls.filter((name) => !callable.has(name)),
      'call() of a name that is not a call method',
    ).to.deep.equal([]);
    expect(
      used.filter((name) => !members.has(name)),
      '__PLUGIN_API__ members that do not exist',
    ).to.deep.equal([]);
  });
});
