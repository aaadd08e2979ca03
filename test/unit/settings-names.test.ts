/**
 * A message that sends a person to Settings names a field or section the Settings panel shows.
 * The hint of a page that needs JavaScript said "Rendering in Settings", where the panel has
 * "Running JavaScript" and "Run a page's JavaScript": a user looked for a word that is not there.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

const SRC = path.resolve(__dirname, '../../src');
const PANEL = path.join(SRC, 'renderer/src/components/settings/SettingsPanel.tsx');

function sources(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return sources(p);
    return /\.tsx?$/.test(e.name) ? [p] : [];
  });
}

/** The names the panel shows: its fields' labels, its sections' titles. */
function panelNames(): Set<string> {
  const text = readFileSync(PANEL, 'utf8');
  const names = [
    ...[...text.matchAll(/\blabel: '([^']+)'/g)].map((m) => m[1]!),
    ...[...text.matchAll(/\btitle: '([^']+)'/g)].map((m) => m[1]!),
    ...[...text.matchAll(/<span id=\{ids\('\w+'\)\.label\}>([^<]+)<\/span>/g)].map((m) => m[1]!),
    ...[...text.matchAll(/<legend>([^<{]+)<\/legend>/g)].map((m) => m[1]!),
  ];
  // A label with a note in brackets is named by its words before it: 'Archive service (for "recover")'.
  return new Set(names.flatMap((n) => [n, n.replace(/\s*\(.*\)$/, '')]).map((n) => n.replace(/’/g, "'")));
}

/** Where a message names a setting: raise "X", Settings, "X", "X" in Settings, (Settings, X), Word in Settings. */
const NAMED = [
  /\b[Rr]aise ["“]([^"”]+)["”]/g,
  /\bSettings, ["“]([^"”]+)["”]/g,
  /["“]([^"”]+)["”] in Settings/g,
  /\(Settings, ([A-Z][\w ]*?)[;)]/g,
  // One capitalized word after a lower-case one: "or Rendering in Settings", not "The limit is in Settings".
  /[a-z,] ([A-Z][a-z]+) in Settings/g,
];

describe('settings named in messages', () => {
  it('are fields or sections of the Settings panel', () => {
    const names = panelNames();
    expect(names).toContain('Time per URL');
    expect(names).toContain('Network');
    const unknown: string[] = [];
    for (const file of sources(SRC)) {
      const text = readFileSync(file, 'utf8');
      for (const re of NAMED) {
        for (const m of text.matchAll(re)) {
          const name = m[1]!.replace(/’/g, "'");
          if (!names.has(name)) unknown.push(`${path.relative(SRC, file)}: "${name}" in …${m[0]}…`);
        }
      }
    }
    expect(unknown).toEqual([]);
  });
});
