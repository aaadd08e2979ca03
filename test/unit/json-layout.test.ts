import { describe, expect, it } from 'vitest';
import { layoutJson } from '../../src/shared/json';

describe('layoutJson', () => {
  it('lays JSON out as JSON.stringify(value, null, 2) does', () => {
    for (const text of [
      '{"a":1,"b":[1,2,{"c":null}],"d":{},"e":[],"f":"x","g":true,"h":false}',
      ' \n{ "a" : [ ] , "b" : { } }\r\n',
      '[[[["deep"]]]]',
      '"a string"',
      '-12.5',
      '{"esc":"quote \\" backslash \\\\ unicode \\u00e9 newline \\n","\\\\":"\\\\\\""}',
      '["\\u2028", "tab\\tend", "emoji \\ud83d\\ude00"]',
    ]) {
      expect(layoutJson(text)).toBe(JSON.stringify(JSON.parse(text), null, 2));
    }
  });

  it('keeps every number as written and every key in its place', () => {
    expect(layoutJson('[12345678901234567890,1.0,1E+2,-0,0.10,1e999]')).toBe('[\n  12345678901234567890,\n  1.0,\n  1E+2,\n  -0,\n  0.10,\n  1e999\n]');
    expect(layoutJson('{"b":1,"2":2,"1":3,"b":4}')).toBe('{\n  "b": 1,\n  "2": 2,\n  "1": 3,\n  "b": 4\n}');
  });

  it('skips a byte order mark, and gives up past the depth it may indent', () => {
    expect(layoutJson('\ufeff{"a":1}')).toBe('{\n  "a": 1\n}');
    expect(layoutJson('['.repeat(10_000) + ']'.repeat(10_000))).toBeUndefined();
    expect(layoutJson(`${'['.repeat(3)}1${']'.repeat(3)}`, 2)).toBeUndefined();
    expect(layoutJson(`${'['.repeat(2)}1${']'.repeat(2)}`, 2)).toBe('[\n  [\n    1\n  ]\n]');
  });
});
