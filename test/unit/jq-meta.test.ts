import { describe, expect, test } from 'vitest';
import { metaRows } from '../../src/renderer/src/lib/meta';

describe("the result pane's meta of JSON read out of a wrapper", () => {
  test('says what the JSON came wrapped in, in words', () => {
    expect(metaRows({ json_wrapper: 'xssi' }).map((r) => [r.label, r.value])).toEqual([['JSON taken out of', "a guard against other sites' scripts ()]}', while(1);) before it"]]);
    expect(metaRows({ json_wrapper: 'jsonp' }).map((r) => [r.label, r.value])).toEqual([['JSON taken out of', 'a JSONP call (callback({…});)']]);
  });
});
