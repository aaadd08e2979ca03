import { describe, expect, it } from 'vitest';
import { parseList } from '../../src/shared/urllist';
import { formatOptionsLine } from '../../src/shared/urllist/options';
import { canonicalTargets, idemKey } from '../../src/main/batch';

describe('the render option in lists and jobs', () => {
  it('is read from a list line and from a JSON list, and a bad value is reported with its line', () => {
    const list = parseList('https://a.example/ render=always\nhttps://b.example/ render=sometimes\nhttps://c.example/ render=never mode=text\n');
    expect(list.targets.map((t) => t.options)).toEqual([{ render: 'always' }, { mode: 'text', render: 'never' }]);
    expect(list.invalid).toHaveLength(1);
    expect(list.invalid[0]).toMatchObject({ line: 2 });
    expect(list.invalid[0]?.reason).toMatch(/unknown render "sometimes": use one of auto, always, never/);
    const json = parseList('[{"url":"https://a.example/","options":{"render":"auto"}}]');
    expect(json.targets[0]?.options).toEqual({ render: 'auto' });
  });
  it('list-wide render is overridden by a line’s own', () => {
    const list = parseList('https://a.example/\nhttps://b.example/ render=never\n', { defaults: { render: 'always' } });
    expect(list.targets.map((t) => t.options?.render)).toEqual(['always', 'never']);
  });
  it('round-trips through a written list line', () => {
    const line = formatOptionsLine({ url: 'https://a.example/', options: { mode: 'text', render: 'always' } });
    expect(line).toBe('https://a.example/ mode=text render=always');
    expect(parseList(line).targets[0]?.options).toEqual({ mode: 'text', render: 'always' });
  });
  it('is kept by the runner: it is part of the stored target and of the idempotency key', () => {
    expect(canonicalTargets([{ url: 'https://a.example/', options: { render: 'auto' } }])).toEqual([{ url: 'https://a.example/', options: { render: 'auto' } }]);
    const caller = { name: 'x' };
    expect(idemKey(caller, [{ url: 'https://a.example/', options: { render: 'always' } }])).not.toBe(idemKey(caller, [{ url: 'https://a.example/' }]));
  });
});
