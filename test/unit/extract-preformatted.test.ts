/**
 * Preformatted text that is not <pre><code>: highlighters write code as a <pre> of <span>s
 * (GitHub's READMEs, Sphinx and Pygments pages), and shell sessions and ASCII tables come as
 * bare <pre>. Turndown wrote those as paragraph text: rendered, the lines ran together, and
 * the code's * and _ were escaped.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch';
import { markdownOf } from '../../src/main/fetch/html';

const FILL = 'This paragraph carries enough words for the page to read as an article, with the block of code among its paragraphs.';
const page = (block: string): string =>
  `<!doctype html><html><head><title>Notes</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Notes</h1><p>${FILL}</p>${block}<p>${FILL}</p><p>${FILL}</p></article></main></body></html>`;

describe('a <pre> that is not <pre><code>', () => {
  it('is a fenced block with its lines and characters as written', () => {
    const md = extractArticle(
      page('<pre><span class="k">def</span> <span class="nf">main</span>(*args, **kw):\n    total_sum = args[0] * 2\n    return total_sum</pre>'),
      'https://docs.example/notes',
    ).markdown;
    expect(md).toContain('\n\n```\ndef main(*args, **kw):\n    total_sum = args[0] * 2\n    return total_sum\n```\n\n');
  });

  it('takes the language a GitHub-style highlighter names on the <div> around it', () => {
    const md = extractArticle(
      page('<div class="highlight highlight-source-python notranslate"><pre>print(<span class="pl-s">"hi"</span>)</pre></div>'),
      'https://docs.example/notes',
    ).markdown;
    expect(md).toContain('```python\nprint("hi")\n```');
  });

  it('takes the language named on the <pre> itself, and a fence longer than any run of backticks inside', () => {
    expect(markdownOf('<pre class="language-sh">echo ```three``` and `one`</pre>')).toBe('````sh\necho ```three``` and `one`\n````');
  });

  it('keeps its line breaks written as <br>, and an empty one is nothing', () => {
    expect(markdownOf('<pre>a<br>b</pre><pre> </pre><p>after</p>')).toBe('```\na\nb\n```\n\nafter');
  });

  it('leaves <pre><code> to turndown\'s fenced rule, with its language, and text mode as laid out', () => {
    const html = page('<pre><code class="language-js">const a = 1;\nconst b = a * 2;</code></pre><pre>x  y\n1  2</pre>');
    const a = extractArticle(html, 'https://docs.example/notes');
    expect(a.markdown).toContain('```js\nconst a = 1;\nconst b = a * 2;\n```');
    expect(a.text).toContain('const a = 1;\nconst b = a * 2;');
    expect(a.text).toContain('x  y\n1  2');
    expect(a.text).not.toContain('```');
  });
});
