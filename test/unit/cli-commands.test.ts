import { describe, expect, it } from 'vitest';
import { commands } from '../../src/cli/commands';

describe('the command registry', () => {
  it('lists each command under the name and summary of the module it loads', async () => {
    expect(new Set(commands.map((c) => c.name)).size).toBe(commands.length);
    for (const entry of commands) {
      const cmd = await entry.load();
      expect({ name: cmd.name, summary: cmd.summary }).toEqual({ name: entry.name, summary: entry.summary });
    }
  });
});
