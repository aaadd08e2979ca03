import { expect, test } from 'vitest';
import { createStore } from 'zustand/vanilla';
import type { TargetRow } from '../../src/shared/types';
import type { State } from '../../src/renderer/src/store';
import { createDetailSlice, jobReasonCounts, jobStepCounts, type DetailSlice } from '../../src/renderer/src/store/detail';
import { reasonCountLabel } from '../../src/shared/reasons';

const detailStore = () => createStore<DetailSlice>()((set, get, api) => createDetailSlice(set as never, get as () => State, api as never));
const failed = (idx: number, error: string): TargetRow => ({
  idx,
  url: `https://example.org/${idx}`,
  status: 'failed',
  reason: 'bad_option',
  error,
  hint: '',
  bytes: 0,
  errorStatus: 400,
  title: '',
  startedAt: 1,
  finishedAt: 2,
});

/** The header's chips as they read: each reason's count under the words its rows' chips use. */
function chips(rows: TargetRow[], rest: DetailSlice['restGroups'] = []): string[] {
  const store = detailStore();
  store.getState().beginDetail('j');
  store.getState().setDetail('j', rows, rows.length + rest.reduce((n, g) => n + g.n, 0), rest);
  const steps = jobStepCounts(store.getState());
  return jobReasonCounts(store.getState()).map(([reason, n]) => `${reasonCountLabel(reason, n, steps)} ${n}`);
}

test('the header counts jq programs that failed as the rows name them, not as "bad URL or option"', () => {
  expect(chips([failed(0, 'jq: Cannot index array with string ("name")'), failed(1, 'jq: null (null) cannot be parsed')])).toEqual(['jq program failed 2']);
  expect(chips([failed(0, 'grep: the pattern ran too long')])).toEqual(['grep pattern failed 1']);
  expect(chips([failed(0, 'bad url: only http and https')])).toEqual(['bad URL or option 1']);
});

test('a count of failures of more than one kind says each kind it holds', () => {
  expect(chips([failed(0, 'jq: Cannot index array with string ("name")'), failed(1, 'bad url: only http and https')])).toEqual(['bad URL, option or program 2']);
  expect(chips([failed(0, 'jq: Cannot index array with string ("name")'), failed(1, 'grep: the pattern ran too long')])).toEqual(['bad URL, option or program 2']);
  // Rows not read yet (a big job's later pages) whose group names no step (a URL refused) are not jq's.
  expect(chips([failed(0, 'jq: Cannot index array with string ("name")')], [{ status: 'failed', error: '', reason: 'bad_option', n: 3 }])).toEqual(['bad URL, option or program 4']);
});
