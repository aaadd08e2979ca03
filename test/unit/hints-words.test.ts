/**
 * No text mixes the two surfaces' words. The app has Settings and buttons and no shell; the
 * command line has flags, commands and environment variables. A message that names both (s25:
 * "allowed (Settings, Network; or --allow-host HOST)") sends each reader half to a place they
 * cannot go. Every string the sources hold is read, so a new message is checked too.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { hintOn, SURFACE_WORDS } from '../../src/shared/hints';

/** What only the command line can act on: a flag, a sift command, an environment variable. */
const CLI_ONLY = /(?<![\w-])--[a-z][a-z-]+|\bsift (?:fetch|extract|parse|batch|jobs|status|cancel|export|search)\b|\bSIFT_[A-Z]{3,}/;
/**
 * What only the app can act on: a click, a button, its Settings. The command line may send its
 * user to the app's Settings for what has no flag, said as the app's.
 */
const APP_ONLY = /\b[Cc]lick|\b[Bb]utton\b|(?<!the app’s |the app's )\bSettings\b/;

/** The app's Settings, but for the command line's way to name them ("in the app's Settings"): what a hint read on the command line may not say. */
const SETTINGS_BARE = /(?<!the app’s |the app's )\bSettings\b/;

/**
 * A list line's option as written (render=never, mode=raw): what a line of a pasted list says,
 * never what to do in the app, whose user sets these in Settings or in the options beside the list.
 */
const OPTION_SYNTAX = /\b(?:render|mode)=[a-z]/;

const ROOT = path.resolve(__dirname, '../..');

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((e) => {
    const rel = path.join(dir, e.name);
    if (e.isDirectory()) return sourceFiles(rel);
    return /\.tsx?$/.test(e.name) && !e.name.endsWith('.d.ts') ? [rel] : [];
  });
}

/** Every string a source file holds: literals, templates (their fixed parts joined), JSX text. */
function stringsOf(file: string): { text: string; line: number }[] {
  const src = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true, file.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS);
  const out: { text: string; line: number }[] = [];
  const add = (node: ts.Node, text: string): void => void out.push({ text, line: src.getLineAndCharacterOfPosition(node.getStart(src)).line + 1 });
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isJsxText(node)) add(node, node.text);
    else if (ts.isTemplateExpression(node)) add(node, [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(' … '));
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

/** The source file a relative import names, or undefined for a package's. */
function resolveImport(from: string, spec: string): string | undefined {
  if (!spec.startsWith('.')) return undefined;
  const base = path.join(path.dirname(from), spec);
  return [`${base}.ts`, `${base}.tsx`, path.join(base, 'index.ts'), base].find((f) => /\.tsx?$/.test(f) && existsSync(path.join(ROOT, f)));
}

/** The relative imports of a file: static, re-exported and loaded on demand (import('…'), as the commands are). */
function importsOf(file: string): string[] {
  const src = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const out: string[] = [];
  const visit = (node: ts.Node): void => {
    const spec =
      (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)
        ? node.moduleSpecifier.text
        : ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.ImportKeyword && node.arguments[0] && ts.isStringLiteral(node.arguments[0])
          ? node.arguments[0].text
          : undefined;
    const found = spec === undefined ? undefined : resolveImport(file, spec);
    if (found) out.push(found);
    ts.forEachChild(node, visit);
  };
  visit(src);
  return out;
}

/** Every source file the command line runs: what src/cli/main.ts reaches through its imports. */
function cliFiles(): string[] {
  const seen = new Set<string>();
  const todo = ['src/cli/main.ts'];
  for (let f = todo.pop(); f !== undefined; f = todo.pop()) {
    if (seen.has(f)) continue;
    seen.add(f);
    todo.push(...importsOf(f));
  }
  return [...seen];
}

/** A string that is the app's half of a wording kept per surface ({ cli: …, app: … }). */
function appHalves(file: string): Set<number> {
  const src = ts.createSourceFile(file, readFileSync(path.join(ROOT, file), 'utf8'), ts.ScriptTarget.Latest, true);
  const lines = new Set<number>();
  const visit = (node: ts.Node): void => {
    if (ts.isPropertyAssignment(node) && ts.isIdentifier(node.name) && node.name.text === 'app') lines.add(src.getLineAndCharacterOfPosition(node.initializer.getStart(src)).line + 1);
    ts.forEachChild(node, visit);
  };
  visit(src);
  return lines;
}

/** hints.ts keeps each surface's words apart, and the mixed words of older databases to translate. */
const OWN_WORDS = 'src/shared/hints.ts';

describe("each surface's words", () => {
  it('no string in the sources names both an app-only place (Settings, a button) and a command-line one (a flag, a command, an environment variable)', () => {
    const mixed = ['src/main', 'src/shared', 'src/cli', 'src/renderer/src']
      .flatMap(sourceFiles)
      .filter((f) => f !== OWN_WORDS)
      .flatMap((f) => stringsOf(f).filter((s) => CLI_ONLY.test(s.text) && APP_ONLY.test(s.text)).map((s) => `${f}:${s.line}: ${s.text}`));
    expect(mixed).toEqual([]);
  });

  it("the app's text names no flag, command or environment variable", () => {
    const said = sourceFiles('src/renderer/src').flatMap((f) => stringsOf(f).filter((s) => CLI_ONLY.test(s.text)).map((s) => `${f}:${s.line}: ${s.text}`));
    expect(said).toEqual([]);
  });

  it("the command line's text names no button or click, and the app's Settings only as the app's", () => {
    const said = sourceFiles('src/cli').flatMap((f) => stringsOf(f).filter((s) => APP_ONLY.test(s.text)).map((s) => `${f}:${s.line}: ${s.text}`));
    expect(said).toEqual([]);
  });

  it("no text the command line runs names the app's Settings as its own: every string of every file sift imports, as the command line shows it (hintOn), says \"the app's Settings\"", () => {
    const files = cliFiles();
    // The walk reaches the core (fetch, batch, store): a file the CLI surely runs.
    expect(files).toContain('src/main/fetch/fetcher.ts');
    const said = files
      .filter((f) => f !== OWN_WORDS)
      .flatMap((f) => {
        const app = appHalves(f);
        return stringsOf(f)
          .filter((s) => !app.has(s.line) && SETTINGS_BARE.test(hintOn('cli', s.text)))
          .map((s) => `${f}:${s.line}: ${hintOn('cli', s.text)}`);
      });
    expect(said).toEqual([]);
  });

  it("a hint worded per surface says the app's in the app's words and the command line's in its own", () => {
    expect(SURFACE_WORDS.length).toBeGreaterThan(3);
    for (const words of SURFACE_WORDS) {
      expect(words.app).not.toMatch(CLI_ONLY);
      expect(words.cli).not.toMatch(APP_ONLY);
      expect(words.cli).not.toMatch(SETTINGS_BARE);
      expect(words.app).not.toMatch(OPTION_SYNTAX);
    }
  });

  it("a hint read in the app names no list-line option (render=never): every string the core writes, and every older stored wording, said in the app's words", () => {
    const said = ['src/main', 'src/shared']
      .flatMap(sourceFiles)
      .flatMap((f) => stringsOf(f).filter((s) => OPTION_SYNTAX.test(s.text) && OPTION_SYNTAX.test(hintOn('app', s.text))).map((s) => `${f}:${s.line}: ${hintOn('app', s.text)}`));
    expect(said).toEqual([]);
  });
});
