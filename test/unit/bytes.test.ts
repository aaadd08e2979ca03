import { describe, expect, it } from 'vitest';
import { formatBytes as appBytes } from '../../src/renderer/src/lib/format';
import { formatBytes as cliBytes } from '../../src/cli/progress';

// The app wrote "1.5 KB" where the command line wrote "1.5 kB" for one result's size.
describe('a size as the app and the command line write it', () => {
  const sizes = [0, 512, 1023, 1024, 1536, 40 * 1024, 1024 ** 2 - 1, 1024 ** 2, 8 * 1024 ** 2, 1536 * 1024 ** 2, 3 * 1024 ** 4];
  it('is written alike by both', () => {
    for (const n of sizes) expect(appBytes(n), String(n)).toBe(cliBytes(n));
  });

  it('as the command line wrote it, in kB, MB and on to GB and TB', () => {
    expect(sizes.map(cliBytes)).toEqual(['0 B', '512 B', '1023 B', '1.0 kB', '1.5 kB', '40.0 kB', '1.0 MB', '1.0 MB', '8.0 MB', '1.5 GB', '3.0 TB']);
    // What no size is, said without a number rather than as "NaN kB".
    expect(appBytes(Number.NaN)).toBe('—');
    expect(appBytes(-1)).toBe('—');
  });
});
