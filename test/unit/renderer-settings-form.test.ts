import { describe, expect, test } from 'vitest';
import { allowHostsError, crossFieldErrors, parseAllowHosts, settingError } from '../../src/renderer/src/lib/settings-form';

describe("Settings fields say what is wrong in the form's words", () => {
  test('numbers: empty, not whole, below or above the range, with the unit', () => {
    expect(settingError('workers', Number.NaN)).toBe('Enter a number.');
    expect(settingError('workers', 2.5)).toBe('Enter a whole number.');
    expect(settingError('workers', 0)).toBe('At least 1.');
    expect(settingError('deadlineSeconds', 99_999, 'seconds')).toBe('At most 3,600 seconds.');
    expect(settingError('maxResultMiB', 0.01, 'MiB')).toBe('At least 0.0625 MiB.');
    // One of a plural unit is singular: "At least 1 hours." read wrong.
    expect(settingError('ttlHours', 0, 'hours')).toBe('At least 1 hour.');
    expect(settingError('deadlineSeconds', 0, 'seconds')).toBe('At least 5 seconds.');
    expect(settingError('maxBodyMiB', 0, 'MiB')).toBe('At least 1 MiB.');
    expect(settingError('ttlHours', 1.5, 'hours')).toBeNull();
  });
  test('text: an empty user agent, a bad archive address', () => {
    expect(settingError('userAgent', '')).toBe('This cannot be empty.');
    expect(settingError('archiveService', 'not a url')).toBe('Enter a web address starting with http:// or https://, or leave it empty.');
    expect(settingError('archiveService', '')).toBeNull();
  });
  test('a host name too long to be one is named among the allowed hosts, with the most a name has', () => {
    // Among many hosts, "At most 253 characters." said neither which one nor that a name can have no more (s26 appqa).
    const long = `${'x'.repeat(300)}.example`;
    expect(settingError('allowHosts', ['wiki.internal.example', long])).toBe(`“${'x'.repeat(20)}…${'x'.repeat(11)}.example” is 308 characters long; a host name has at most 253.`);
    expect(settingError('allowHosts', ['wiki.internal.example', 'x'.repeat(253)])).toBeNull();
  });
  test('a user agent is one line of ASCII: a header with anything else failed every fetch', () => {
    for (const ua of ['Sift/1\nX-Evil: 1', 'Sift/1\r', 'Sift—app/1', 'Sift/1 é', 'a\tb']) {
      expect(settingError('userAgent', ua)).toMatch(/^Use plain letters, digits and punctuation \(ASCII\) on one line/);
    }
    expect(settingError('userAgent', 'Mozilla/5.0 (compatible; Mine/2; +https://example.org)')).toBeNull();
  });
  test('more live jobs for this app than in all is named at the first, in the form’s words', () => {
    expect(crossFieldErrors({ jobsPerCaller: 9, jobsTotal: 8 })).toEqual({ jobsPerCaller: 'At most “Live jobs at once (all)”, now 8.' });
    expect(crossFieldErrors({ jobsPerCaller: 8, jobsTotal: 8 })).toEqual({});
  });
  test('no message is zod’s own', () => {
    for (const [k, v] of [['workers', -1], ['maxBodyMiB', Number.NaN], ['userAgent', ''], ['chromiumPath', 'x'.repeat(5000)], ['renderPages', 99]] as const) {
      expect(settingError(k, v)).not.toMatch(/expected|Invalid input|>=|<=/);
    }
  });
});

describe('allowed hosts are host names, as the guard compares them', () => {
  test('an address pasted whole is its host; case and a trailing path do not matter', () => {
    expect(parseAllowHosts('https://Wiki.Example/start?x=1\nintranet.example/path, 10.0.0.5')).toEqual({
      hosts: ['wiki.example', 'intranet.example', '10.0.0.5'],
      bad: [],
      ranges: [],
    });
  });
  test('an IPv6 address is taken bare, in brackets, or with a port, as the guard matches it', () => {
    expect(parseAllowHosts('::1\nFD00::5, [fd00::6]:8080\nhttp://[fd00::7]/x,10.0.0.5:8443')).toEqual({
      hosts: ['[::1]', '[fd00::5]', '[fd00::6]', '[fd00::7]', '10.0.0.5'],
      bad: [],
      ranges: [],
    });
  });
  test('a leading dot (every subdomain) is kept', () => {
    expect(parseAllowHosts('.corp.example')).toEqual({ hosts: ['.corp.example'], bad: [], ranges: [] });
  });
  test('what cannot be a host is reported, not saved to never match', () => {
    expect(parseAllowHosts('good.example\nhost!!\nhttp://')).toEqual({ hosts: ['good.example'], bad: ['host!!', 'http://'], ranges: [] });
    expect(allowHostsError(['host!!'], [])).toBe('Not a host name: “host!!”. Write a name such as wiki.internal.example, or an address.');
  });
  test('entries are one a line or separated by commas, as the help says; one with a space in it is one bad entry, said so', () => {
    // Split at spaces, "wiki internal" (a dot typed as a space) allowed the two hosts "wiki" and "internal", without a word.
    expect(parseAllowHosts(' wiki.example \n\nintranet.example,  10.0.0.5 ,\n')).toEqual({ hosts: ['wiki.example', 'intranet.example', '10.0.0.5'], bad: [], ranges: [] });
    expect(parseAllowHosts('wiki internal\ngood.example')).toEqual({ hosts: ['good.example'], bad: ['wiki internal'], ranges: [] });
    expect(allowHostsError(['wiki internal'], [])).toBe(
      'Not a host name: “wiki internal”: a host name has no spaces. Write one host a line, or separate them with commas, such as wiki.internal.example.',
    );
    expect(allowHostsError(['wiki internal', 'host!!'], [])).toBe(
      'Not a host name: “wiki internal”, “host!!”: a host name has no spaces. Write one host a line, or separate them with commas, such as wiki.internal.example.',
    );
  });
  test('a range of addresses is said to be one, not saved as its first address', () => {
    // "10.0.0.0/8" was read as an address with a path: 10.0.0.0 was saved, and every other address of the range stayed blocked without a word (s27 appqa2).
    expect(parseAllowHosts('10.0.0.0/8\n192.168.1.0/24, fd00::/8\nwiki.example\n10.0.0.5/status')).toEqual({
      hosts: ['wiki.example', '10.0.0.5'],
      bad: [],
      ranges: ['10.0.0.0/8', '192.168.1.0/24', 'fd00::/8'],
    });
    expect(allowHostsError([], ['10.0.0.0/8', 'fd00::/8'])).toBe(
      '“10.0.0.0/8” and “fd00::/8” are ranges of addresses, which Sift does not allow as a whole: list each address, or tick “Allow private and loopback addresses” above.',
    );
    expect(allowHostsError([], ['10.0.0.0/8'])).toMatch(/^“10\.0\.0\.0\/8” is a range of addresses, which Sift/);
    expect(allowHostsError([], [])).toBeNull();
  });
});
