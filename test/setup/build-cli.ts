import { execFileSync } from 'node:child_process';
import path from 'node:path';

/**
 * Builds the CLI bundle before any test runs `bin/sift.cjs`, so the tests run the bundle a
 * user runs, never the tsx fallback (which says so on stderr, and would show in tests that
 * read stderr) because a source was edited after the last build.
 */
export default function buildCliBundle(): void {
  execFileSync(process.execPath, [path.resolve(__dirname, '../../scripts/build-cli.mjs'), '--quiet'], { stdio: 'inherit' });
}
