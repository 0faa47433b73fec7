// package.json promises a Node version (engines); every locked dependency must run on it, or `npm ci` warns
// EBADENGINE and the dependency may fail on the machines we promise to support.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const ROOT = new URL('../..', import.meta.url).pathname;

type Version = [number, number, number];
type Partial = [number | null, number | null, number | null];

const compare = (a: Version, b: Version) => a[0] - b[0] || a[1] - b[1] || a[2] - b[2];

/** `20`, `20.19`, `20.x`, `10.*` → the given numbers (missing or wildcard parts are null). */
function partial(text: string): Partial {
  const parts = text.replace(/^v/, '').split('.');
  if (parts.length > 3 || parts.some((p) => !/^(\d+|x|X|\*)$/.test(p))) {
    throw new Error(`cannot read the version "${text}"`);
  }
  const at = (i: number) => (parts[i] !== undefined && /^\d+$/.test(parts[i]) ? Number(parts[i]) : null);
  return [at(0), at(1), at(2)];
}

const floor = (p: Partial): Version => [p[0] ?? 0, p[1] ?? 0, p[2] ?? 0];

/** The first version above every version the partial names: `20` → 21.0.0, `20.19` → 20.20.0. */
function ceiling(p: Partial): Version {
  if (p[0] === null) return [Infinity, 0, 0];
  if (p[1] === null) return [p[0] + 1, 0, 0];
  if (p[2] === null) return [p[0], p[1] + 1, 0];
  return [p[0], p[1], p[2] + 1];
}

function satisfiesComparator(version: Version, comparator: string): boolean {
  const match = /^(>=|<=|>|<|=|\^|~)?(.+)$/.exec(comparator);
  if (!match) throw new Error(`cannot read the comparator "${comparator}"`);
  const [, op = '', rest] = match;
  if (rest === '*' || rest === 'x') return true;
  const p = partial(rest!);
  const low = floor(p);
  switch (op) {
    case '>=':
      return compare(version, low) >= 0;
    case '>':
      return compare(version, ceiling(p)) >= 0;
    case '<':
      return compare(version, low) < 0;
    case '<=':
      return compare(version, ceiling(p)) < 0;
    case '^': {
      const high: Version = low[0] > 0 || p[1] === null ? [low[0] + 1, 0, 0] : [0, low[1] + 1, 0];
      return compare(version, low) >= 0 && compare(version, high) < 0;
    }
    case '~': {
      const high: Version = p[1] === null ? [low[0] + 1, 0, 0] : [low[0], low[1] + 1, 0];
      return compare(version, low) >= 0 && compare(version, high) < 0;
    }
    default:
      return compare(version, low) >= 0 && compare(version, ceiling(p)) < 0;
  }
}

/** Whether a semver range as npm writes it in engines (`>=18`, `^20.19.0 || >=22.12.0`, `>= 0.8`) admits the version. */
export function rangeAdmits(range: string, version: Version): boolean {
  return range
    .replace(/(>=|<=|>|<|=|\^|~)\s+/g, '$1')
    .split('||')
    .some((alternative) =>
      alternative
        .trim()
        .split(/\s+/)
        .filter(Boolean)
        .every((comparator) => satisfiesComparator(version, comparator)),
    );
}

test('the range reader agrees with npm on the forms the lock file holds', () => {
  const v: Version = [20, 19, 0];
  for (const range of [
    '>=20.19',
    '>= 20.19.0',
    '^20.19.0 || >=22.12.0',
    '18 || 20 || >=22',
    '*',
    '>= 10.x',
    '~20.19',
  ]) {
    assert.ok(rangeAdmits(range, v), range);
  }
  for (const range of [
    '>=22',
    '>=20.20',
    '^18.18.0 || >=21.1.0',
    '20.20.x',
    '<20.19',
    '^20.20.0',
    '>20.19',
  ]) {
    assert.ok(!rangeAdmits(range, v), range);
  }
});

test('every locked dependency runs on the oldest Node that package.json promises', () => {
  const root = JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { engines: { node: string } };
  const promised = /^>=\s*(\d+)\.(\d+)(?:\.(\d+))?$/.exec(root.engines.node);
  assert.ok(promised, `package.json engines.node "${root.engines.node}" is not of the form >=X.Y`);
  const oldest: Version = [Number(promised[1]), Number(promised[2]), Number(promised[3] ?? 0)];
  const lock = JSON.parse(readFileSync(`${ROOT}package-lock.json`, 'utf8')) as {
    packages: Record<string, { version?: string; engines?: { node?: string } | string[] }>;
  };
  const refused: string[] = [];
  for (const [path, entry] of Object.entries(lock.packages)) {
    const range = Array.isArray(entry.engines) ? undefined : entry.engines?.node;
    if (!path || !range) continue;
    if (!rangeAdmits(range, oldest)) {
      const name = path.slice(path.lastIndexOf('node_modules/') + 'node_modules/'.length);
      refused.push(`  ${name}@${entry.version} needs node "${range}" (${path})`);
    }
  }
  assert.deepEqual(
    refused,
    [],
    `these dependencies do not support Node ${oldest.join('.')} (package.json engines "${root.engines.node}"); ` +
      `choose versions that do, or override them in package.json:\n${refused.join('\n')}`,
  );
});
