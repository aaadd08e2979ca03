import { describe, expect, it } from 'vitest';
import { formatBytes, formatBytesApart } from '../../src/shared/bytes';

// The app wrote "1.5 KB" where the command line wrote "1.5 kB" for one result's size; both now
// import this one formatter (no re-export in between that could grow its own copy again).
describe('a size as the app and the command line write it', () => {
  const sizes = [0, 512, 1023, 1024, 1536, 40 * 1024, 1024 ** 2 - 1, 1024 ** 2, 8 * 1024 ** 2, 1536 * 1024 ** 2, 3 * 1024 ** 4];
  it('as the command line wrote it, in kB, MB and on to GB and TB', () => {
    expect(sizes.map(formatBytes)).toEqual(['0 B', '512 B', '1023 B', '1.0 kB', '1.5 kB', '40.0 kB', '1.0 MB', '1.0 MB', '8.0 MB', '1.5 GB', '3.0 TB']);
    // What no size is, said without a number rather than as "NaN kB".
    expect(formatBytes(Number.NaN)).toBe('—');
    expect(formatBytes(-1)).toBe('—');
  });
});

// A body cut short said "3000 bytes of the 12 KB announced": decimal KB in the fetch's words,
// binary kB in the table's, and 4,999,000 of 5,000,000 bytes read "5.0 MB of the 5.0 MB".
describe('two sizes said side by side', () => {
  it('are written as every other size is', () => {
    expect(formatBytesApart(3000, 12000)).toEqual(['2.9 kB', '11.7 kB']);
    expect(formatBytesApart(812, 5 * 1024 ** 2)).toEqual(['812 B', '5.0 MB']);
  });

  it('are written in bytes where the two would read alike', () => {
    expect(formatBytesApart(4_999_000, 5_000_000)).toEqual(['4,999,000 B', '5,000,000 B']);
    expect(formatBytesApart(1030, 1040)).toEqual(['1,030 B', '1,040 B']);
  });
});
