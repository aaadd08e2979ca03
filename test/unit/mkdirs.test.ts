import { existsSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { makeDirs, makeDirsSync } from '../../src/main/mkdirs';
import { tempDir } from '../helpers/store';

const codeOf = (fn: () => unknown): string => {
  try {
    fn();
  } catch (err) {
    return (err as NodeJS.ErrnoException).code ?? 'no code';
  }
  return 'no error';
};
const asyncCodeOf = (p: Promise<unknown>): Promise<string> => p.then(
  () => 'no error',
  (err: unknown) => (err as NodeJS.ErrnoException).code ?? 'no code',
);

const made: { remove(): void }[] = [];
afterEach(() => made.splice(0).forEach((t) => t.remove()));
const newRoot = (): string => {
  const t = tempDir('sift-mkdirs-');
  made.push(t);
  return t.dir;
};

describe('makeDirs (mkdir -p that always ends)', () => {
  it('makes the missing folders, and is content with ones that exist', async () => {
    const root = newRoot();
    makeDirsSync(path.join(root, 'a', 'b', 'c'));
    await makeDirs(path.join(root, 'x', 'y'));
    expect(statSync(path.join(root, 'a', 'b', 'c')).isDirectory()).toBe(true);
    expect(statSync(path.join(root, 'x', 'y')).isDirectory()).toBe(true);
    makeDirsSync(path.join(root, 'a', 'b'));
    await makeDirs(root);
    // A relative path is the working folder's.
    await makeDirs(path.relative(process.cwd(), path.join(root, 'rel')));
    expect(existsSync(path.join(root, 'rel'))).toBe(true);
  });

  it('says ENOTDIR where a file is in the way, and ENOENT under a link to nowhere', async () => {
    const root = newRoot();
    writeFileSync(path.join(root, 'file'), 'x');
    expect(codeOf(() => makeDirsSync(path.join(root, 'file', 'sub')))).toBe('ENOTDIR');
    expect(await asyncCodeOf(makeDirs(path.join(root, 'file', 'sub', 'deeper')))).toBe('ENOTDIR');
    expect(codeOf(() => makeDirsSync(path.join(root, 'file')))).toBe('ENOTDIR');
    symlinkSync(path.join(root, 'gone'), path.join(root, 'link'));
    expect(codeOf(() => makeDirsSync(path.join(root, 'link', 'sub')))).toBe('ENOENT');
    expect(await asyncCodeOf(makeDirs(path.join(root, 'link', 'sub')))).toBe('ENOENT');
  });

  it.runIf(existsSync('/proc/self'))('answers ENOENT at once for a folder /proc cannot hold, where fs.mkdir {recursive} spins forever', async () => {
    expect(codeOf(() => makeDirsSync('/proc/sift-test/sub'))).toBe('ENOENT');
    expect(await asyncCodeOf(makeDirs('/proc/sift-test'))).toBe('ENOENT');
  });
});
