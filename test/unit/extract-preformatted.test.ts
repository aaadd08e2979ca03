/**
 * Preformatted text that is not <pre><code>: highlighters write code as a <pre> of <span>s
 * (GitHub's READMEs, Sphinx and Pygments pages), and shell sessions and ASCII tables come as
 * bare <pre>. Turndown wrote those as paragraph text: rendered, the lines ran together, and
 * the code's * and _ were escaped.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';
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

  it('takes the language Sphinx names two <div>s up, and none from a theme\'s "highlight-box"', () => {
    const md = extractArticle(
      page(
        '<div class="highlight-python3 notranslate"><div class="highlight"><pre><span class="gp">&gt;&gt;&gt; </span>import json</pre></div></div>' +
          '<div class="highlight-default notranslate"><div class="highlight"><pre>make all</pre></div></div><div class="highlight-box"><pre>boxed words</pre></div>',
      ),
      'https://docs.example/notes',
    ).markdown;
    expect(md).toContain('```python3\n>>> import json\n```');
    expect(md).toContain('```\nmake all\n```');
    expect(md).toContain('```\nboxed words\n```');
  });

  it.each([
    ["SyntaxHighlighter's brush (older blogs)", '<pre class="brush: js; gutter: false">var a = 1;</pre>', 'js', 'var a = 1;'],
    ["pandoc's sourceCode", '<pre class="sourceCode python"><code class="sourceCode python">print(1)</code></pre>', 'python', 'print(1)'],
    ['a data-language on the <pre>', '<pre data-language="ruby"><code>puts 1</code></pre>', 'ruby', 'puts 1'],
    ["Hugo's data-lang on the <code>", '<pre tabindex="0"><code data-lang="go">package main</code></pre>', 'go', 'package main'],
    ["Jekyll's Rouge, two <div>s up", '<div class="language-yaml highlighter-rouge"><div class="highlight"><pre class="highlight"><code>a: 1</code></pre></div></div>', 'yaml', 'a: 1'],
  ])('takes the language a highlighter names in its own way: %s', (_what, block, lang, code) => {
    expect(extractArticle(page(block), 'https://docs.example/notes').markdown).toContain(`\`\`\`${lang}\n${code}\n\`\`\``);
  });

  it.each([
    ["GitHub's older renderer: lang on the <pre>", '<pre lang="ruby"><code>puts 1\nputs 2</code></pre>', 'ruby', 'puts 1\nputs 2'],
    ['a code block plugin: lang on the <code>', '<pre class="wp-block-code"><code lang="bash">ls -la</code></pre>', 'bash', 'ls -la'],
    ["highlight.js before version 10: its class beside \"hljs\"", '<pre><code class="hljs javascript"><span class="hljs-keyword">var</span> a = 1;</code></pre>', 'javascript', 'var a = 1;'],
    ['highlight.js, the name first', '<pre><code class="python hljs">x = 1</code></pre>', 'python', 'x = 1'],
  ])('takes the language a code block names by its lang or next to "hljs": %s', (_what, block, lang, code) => {
    expect(extractArticle(page(block), 'https://docs.example/notes').markdown).toContain(`\`\`\`${lang}\n${code}\n\`\`\``);
  });

  it('reads a lang that is the page\'s own language, or a language with its region, as the words\' language, not the code\'s', () => {
    const md = extractArticle(page('<pre lang="en">plain words</pre><pre lang="en-GB">more words</pre><pre><code class="hljs">x = y</code></pre>'), 'https://docs.example/notes').markdown;
    expect(md).toContain('```\nplain words\n```');
    expect(md).toContain('```\nmore words\n```');
    expect(md).toContain('```\nx = y\n```');
    const english = page('<pre lang="sh">make all</pre><pre lang="en">plain words</pre>').replace('<html>', '<html lang="en">');
    const named = extractArticle(english, 'https://docs.example/notes').markdown;
    expect(named).toContain('```sh\nmake all\n```');
    expect(named).toContain('```\nplain words\n```');
  });

  it('takes no language from a "language-" class that names no highlighted block, nor from Rouge\'s plain text', () => {
    const md = extractArticle(
      page('<div class="language-selector"><pre>plain words</pre></div><div class="language-plaintext highlighter-rouge"><div class="highlight"><pre class="highlight"><code>x = y</code></pre></div></div>'),
      'https://docs.example/notes',
    ).markdown;
    expect(md).toContain('```\nplain words\n```');
    expect(md).toContain('```\nx = y\n```');
  });

  it('takes the language named on the <pre> itself, and a fence longer than any run of backticks inside', () => {
    expect(markdownOf('<pre class="language-sh">echo ```three``` and `one`</pre>')).toBe('````sh\necho ```three``` and `one`\n````');
  });

  it('takes any number of backtick runs (counted in a loop, not spread into Math.max, which overflows the stack)', () => {
    expect(markdownOf(`<pre>${'` '.repeat(200_000)}</pre>`)).toMatch(/^```\n` `/);
  });

  it('keeps its line breaks written as <br>, and an empty one is nothing', () => {
    expect(markdownOf('<pre>a<br>b</pre><pre> </pre><p>after</p>')).toBe('```\na\nb\n```\n\nafter');
  });

  it('keeps the code\'s runs of blank lines, which are collapsed only outside a fenced block', () => {
    const md = extractArticle(page('<pre><code class="language-python">import os\n\n\ndef main():\n    pass</code></pre><pre>a\n\n\n\nb</pre>'), 'https://docs.example/notes').markdown;
    expect(md).toContain('```python\nimport os\n\n\ndef main():\n    pass\n```');
    expect(md).toContain('```\na\n\n\n\nb\n```');
    expect(markdownOf('<pre><code></code></pre><p>one</p><pre>x\n\n\ny</pre><p>two</p>')).toBe('one\n\n```\nx\n\n\ny\n```\n\ntwo');
  });

  it('writes no line of only blanks and no blanks at a paragraph\'s end outside a fenced block', () => {
    // A list item's indent under its image, a paragraph of &nbsp; and a <br>, a <br> ending a paragraph.
    expect(markdownOf('<ul><li><p><img src="https://x.example/a.png" alt="pic"></p>\n<p>Image 1 of 3</p></li></ul><p>text</p>')).toBe(
      '-   ![pic](https://x.example/a.png)\n\n    Image 1 of 3\n\ntext',
    );
    expect(markdownOf('<p>one</p><p>&nbsp;&nbsp;<br></p><p>two<br></p><p> <br> </p><h3>Three</h3>')).toBe('one\n\ntwo\n\n### Three');
    // A <br> inside a paragraph is still a hard break; a code block's blank-looking line is the code's.
    expect(markdownOf('<p>line one<br>line two</p><pre>x\n   \ny</pre>')).toBe('line one  \nline two\n\n```\nx\n   \ny\n```');
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

describe('code laid out in a table beside its line numbers', () => {
  const rouge =
    '<figure class="highlight"><pre><code class="language-ruby"><table class="rouge-table"><tbody><tr><td class="gutter gl"><pre class="lineno">1\n2\n3\n</pre></td>' +
    '<td class="code"><pre><span class="k">def</span> foo\n  puts <span class="s1">\'foo\'</span>\n<span class="k">end</span>\n</pre></td></tr></tbody></table></code></pre></figure>';
  const chroma =
    '<div class="highlight"><table class="lntable"><tr><td class="lntd"><pre><code><span class="lnt">1\n</span><span class="lnt">2\n</span></code></pre></td>' +
    '<td class="lntd"><pre><code class="language-go"><span class="line">package main\n</span><span class="line">func main() {}</span></code></pre></td></tr></table></div>';

  it('is the code alone, in a fenced block with its language, inside a <pre> or not', () => {
    const a = extractArticle(page(rouge + chroma), 'https://blog.example/post');
    expect(a.markdown).toContain("```ruby\ndef foo\n  puts 'foo'\nend\n```");
    expect(a.markdown).toContain('```go\npackage main\nfunc main() {}\n```');
    expect(a.markdown).not.toContain('|');
    expect(a.text).toContain("def foo\n  puts 'foo'\nend");
    expect(a.text).not.toMatch(/^1$/m);
  });

  it.each([
    ['Hugo (ln)', '<pre tabindex="0" class="chroma"><code class="language-go" data-lang="go"><span class="line"><span class="ln">1</span><span class="cl">package main\n</span></span><span class="line"><span class="ln">2</span><span class="cl">func main() {}</span></span></code></pre>', 'go'],
    ['Sphinx (linenos)', '<div class="highlight-go notranslate"><div class="highlight"><pre><span></span><span class="linenos">1</span>package main\n<span class="linenos">2</span>func main() {}</pre></div></div>', 'go'],
    ['Rouge (lineno)', '<pre class="highlight"><code class="language-go"><span class="lineno">1</span> package main\n<span class="lineno">2</span> func main() {}</code></pre>', 'go'],
  ])('is the code alone when the numbers are written inside it, a <span> a line: %s', (_what, block, lang) => {
    const md = extractArticle(page(block), 'https://docs.example/notes').markdown;
    expect(md).toMatch(new RegExp(`\`\`\`${lang}\n ?package main\n ?func main\\(\\) \\{\\}\n\`\`\``));
  });

  it('is the code alone when each line is a row beside a cell its number is drawn in (data-line-number)', () => {
    const blob =
      '<table class="highlight tab-size js-file-line-container"><tr><td id="L1" class="blob-num js-line-number" data-line-number="1"></td><td id="LC1" class="blob-code blob-code-inner js-file-line"><span class="pl-k">import</span> os</td></tr>' +
      '<tr><td id="L2" class="blob-num js-line-number" data-line-number="2"></td><td id="LC2" class="blob-code blob-code-inner js-file-line">\n</td></tr>' +
      '<tr><td id="L3" class="blob-num js-line-number" data-line-number="3"></td><td id="LC3" class="blob-code blob-code-inner js-file-line">print(os)</td></tr></table>';
    const hljs =
      '<pre><code class="hljs language-js"><table class="hljs-ln"><tbody><tr><td class="hljs-ln-line hljs-ln-numbers" data-line-number="1"><div class="hljs-ln-n" data-line-number="1"></div></td><td class="hljs-ln-line hljs-ln-code" data-line-number="1">var a = 1;</td></tr>' +
      '<tr><td class="hljs-ln-line hljs-ln-numbers" data-line-number="2"><div class="hljs-ln-n" data-line-number="2"></div></td><td class="hljs-ln-line hljs-ln-code" data-line-number="2">  var b = 2;</td></tr></tbody></table></code></pre>';
    const a = extractArticle(page(blob + hljs), 'https://docs.example/notes');
    expect(a.markdown).toContain('```\nimport os\n\nprint(os)\n```');
    expect(a.markdown).toContain('```js\nvar a = 1;\n  var b = 2;\n```');
    expect(a.markdown).not.toContain('|');
    expect(a.text).toContain('var a = 1;\n  var b = 2;');
  });

  it('is the code alone when a cell of numbered lines stands beside a cell of as many lines, with no <pre>', () => {
    // SyntaxHighlighter 3 as its script leaves a page (a rendered page), and a WordPress highlighter's table.
    const syntaxHighlighter =
      '<div class="syntaxhighlighter js"><table border="0" cellpadding="0" cellspacing="0"><tbody><tr><td class="gutter"><div class="line number1 index0 alt2">1</div><div class="line number2 index1 alt1">2</div></td>' +
      '<td class="code"><div class="container"><div class="line number1 index0 alt2"><code class="js keyword">if</code> <code class="js plain">(a) {</code></div>' +
      '<div class="line number2 index1 alt1"><code class="js spaces">&nbsp;&nbsp;</code><code class="js plain">b = a * 2; }</code></div></div></td></tr></tbody></table></div>';
    const crayon =
      '<div class="crayon-syntax"><table class="crayon-table"><tr class="crayon-row"><td class="crayon-nums"><div class="crayon-nums-content"><div class="crayon-num">7</div><div class="crayon-num">8</div><div class="crayon-num">9</div></div></td>' +
      '<td class="crayon-code"><div class="crayon-pre"><div class="crayon-line">SELECT name</div><div class="crayon-line">FROM users</div><div class="crayon-line">WHERE id = 1;</div></div></td></tr></table></div>';
    const a = extractArticle(page(syntaxHighlighter + crayon), 'https://blog.example/post');
    expect(a.markdown).toContain('```js\nif (a) {\n  b = a * 2; }\n```');
    expect(a.markdown).toContain('```\nSELECT name\nFROM users\nWHERE id = 1;\n```');
    expect(a.markdown).not.toContain('|');
    expect(a.text).toContain('SELECT name\nFROM users');
  });

  it('leaves a row of a number beside words a table', () => {
    const md = extractArticle(page('<table><tr><td><div>1</div><div>2</div></td><td><div><div>first</div><div>second</div></div></td><td>more</td></tr><tr><td>3</td><td>x</td><td>y</td></tr></table><table><tr><td><div>1</div><div>3</div></td><td><div>a</div><div>b</div></td></tr></table>'), 'https://blog.example/post').markdown;
    expect(md).toContain('more');
    expect(md).not.toContain('```');
  });

  it('leaves a table of two columns whose first holds numbers as words a table', () => {
    const md = extractArticle(page('<table><tr><td>1</td><td>Kyle Busch</td></tr><tr><td>2</td><td>Martin Truex</td></tr></table>'), 'https://blog.example/post').markdown;
    expect(md).toContain('| 2   | Martin Truex |');
  });

  it('keeps a number in a <span> of the code that is not a line number', () => {
    const md = extractArticle(page('<pre><code class="language-py">x = <span class="mi">1</span>\ny = <span class="ln-value">2</span></code></pre>'), 'https://docs.example/notes').markdown;
    expect(md).toContain('```py\nx = 1\ny = 2\n```');
  });

  it('leaves a table of data as a table, numbers in its first cell or not', () => {
    const md = extractArticle(page('<table><tr><td>12</td><td><pre>kept</pre></td></tr></table><table><tr><td><pre>a\nb</pre></td><td><pre>c</pre></td></tr></table>'), 'https://blog.example/post').markdown;
    // As HTML: a Markdown cell holds no block of code.
    expect(md).toContain('<tr><td>12</td><td><pre>kept</pre></td></tr>');
    expect(md).toContain('<tr><td><pre>a&#10;b</pre></td><td><pre>c</pre></td></tr>');
  });
});

describe('code whose lines are <br>s in a <code> with no <pre> (editors, forums)', () => {
  it('is a fenced block of its lines as a browser shows them, where inline code made them one', () => {
    const md = markdownOf('<p>Run:</p><p><code class="language-sh">cd  /srv\n<br>\n&nbsp;&nbsp;make *all*<br>  echo `done`<br></code></p><p>after</p>');
    expect(md).toBe('Run:\n\n```sh\ncd /srv\n  make *all*\necho `done`\n```\n\nafter');
  });

  it('leaves inline code without a line break inline', () => {
    expect(markdownOf('<p>Call <code>run()</code> now.</p>')).toBe('Call `run()` now.');
  });

  it('in a <pre><code> keeps them too, with the language (turndown\'s fenced rule made "a<br>b" "ab")', () => {
    expect(markdownOf('<pre><code class="language-py">a = 1<br>  b = 2</code></pre>')).toBe('```py\na = 1\n  b = 2\n```');
  });

  it('in an article keeps its lines in text mode too', () => {
    const a = extractArticle(page('<code>first line<br>second line</code>'), 'https://docs.example/notes');
    expect(a.markdown).toContain('```\nfirst line\nsecond line\n```');
    expect(a.text).toContain('first line\nsecond line');
  });
});
