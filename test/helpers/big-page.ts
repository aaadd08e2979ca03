/**
 * A long article page of about `chars` characters, as a spec or a long thread is built:
 * sections with headings, paragraphs with links and code, lists and tables, so every pass of
 * the extraction (Readability, the markdown of each kind of block) has work on it.
 */
export function bigArticle(chars: number, title = 'The long specification'): string {
  const words = 'tide moon water harbour chart pilot current estuary channel beacon buoy sounding ebb flood neap spring'.split(' ');
  const sentence = (i: number): string => Array.from({ length: 14 }, (_, k) => words[(i * 7 + k * 3) % words.length]).join(' ');
  const parts: string[] = [];
  let size = 0;
  for (let s = 0; size < chars; s++) {
    const section = [
      `<section id="s${s}"><h2>Section ${s}</h2>`,
      `<p>${sentence(s)}, as <a href="/notes/${s}">note ${s}</a> says, and <code>tide(${s})</code> computes.</p>`,
      `<p>${sentence(s + 1)}. ${sentence(s + 2)}.</p>`,
      `<ul><li>${sentence(s + 3)}</li><li>${sentence(s + 4)}</li></ul>`,
      `<table><thead><tr><th>Port</th><th>High water</th></tr></thead><tbody><tr><td>Port ${s}</td><td>0${s % 10}:12</td></tr></tbody></table>`,
      `<pre><code>let level = ${s};\nlevel += 1;</code></pre></section>`,
    ].join('\n');
    parts.push(section);
    size += section.length;
  }
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>${title}</h1>\n${parts.join('\n')}\n</article></main><footer>the end</footer></body></html>`;
}
