/**
 * A Markdown file is titled as its reader takes it, by its front matter's title or its first
 * level-1 heading, in a grep of it too: through the real `sift batch` against a loopback
 * server, a post with front matter was titled "---" (its first line) and a README sent as
 * text/plain by its badges; the stored title names the export's file and heads Ask this job's answers.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { textJob, type TextJob } from '../helpers/text-job';

const POST = '---\nlayout: post\ntitle: "Dock notes"\n---\n\nThe tide came in early.\n\nMara counted the crates twice.\n';
const README = '[![build](https://ci.example/b.svg)](https://ci.example/)\n\n# crates\n\nCounts the crates on a dock.\n';

let job: TextJob;
beforeAll(async () => {
  job = await textJob(
    {
      '/post.md': (_q, r) => r.writeHead(200, { 'content-type': 'text/markdown; charset=utf-8' }).end(POST),
      // Raw file hosts send a .md file as text/plain.
      '/README.md': README,
    },
    (origin) => [`${origin}/post.md grep=crates`, `${origin}/README.md`],
  );
});
afterAll(async () => {
  await job?.close();
});

describe("a Markdown file's title", () => {
  it('is its front matter title or its first level-1 heading, in a grep too', () => {
    expect(job.results[0]?.content).toBe('Mara counted the crates twice.');
    const titles = job.read((store, id) => store.targetRows(id).map((t) => store.targetResult(id, t.idx)?.result?.meta?.title));
    expect(titles).toEqual(['Dock notes', 'crates']);
  });
});
