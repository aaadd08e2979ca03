/**
 * Formulas: a page that writes each one as hidden MathML (with its TeX) beside a picture of
 * it gave an image per formula in Markdown and nothing in text; MathML read as it is ran its
 * letters together ("x=y2"). Each is now its TeX, or its MathML read as a line.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';
import { linearMath, texOf, type MathNode } from '../../src/main/fetch/math';
import { markdownOf } from '../../src/main/fetch/html';
import { parseHTML } from 'linkedom';

const FILL = 'The paragraph goes on about the quantities and their units, so that the page reads as an article with enough text around the formula.';

/** A formula as hidden MathML with its TeX, and beside it a picture whose alt is that TeX. */
function pictured(tex: string, display = false): string {
  const block = display ? ' display="block"' : '';
  return (
    `<span class="formula"><span class="a11y" style="display: none;"><math xmlns="http://www.w3.org/1998/Math/MathML"${block} alttext="{\\displaystyle ${tex}}">` +
    `<semantics><mrow><mi>E</mi></mrow><annotation encoding="application/x-tex">{\\displaystyle ${tex}}</annotation></semantics></math></span>` +
    `<img src="/render/${encodeURIComponent(tex)}.svg" aria-hidden="true" alt="{\\displaystyle ${tex}}"></span>`
  );
}

function page(body: string): string {
  return `<!doctype html><html><head><title>Equivalence</title></head><body><nav><a href="/">Home</a></nav><main><article><h1>Equivalence</h1>${body}</article></main></body></html>`;
}

const WIKI_LIKE = page(
  `<p>The principle is described by the formula ${pictured('E=mc^{2}')}. ${FILL}</p>` +
    `<p>For a body at rest: ${FILL}</p><dl><dd>${pictured('E_{0}=m_{0}c^{2}', true)}</dd></dl><p>${FILL} ${FILL}</p>`,
);

describe('a formula with its TeX beside a picture of it', () => {
  it('is $TeX$ in Markdown, a $$ block when it is a display formula, and no image', () => {
    const md = extractArticle(WIKI_LIKE, 'https://physics.example/e').markdown;
    expect(md).toContain('described by the formula $E=mc^{2}$.');
    expect(md).toContain('\n\n$$\nE_{0}=m_{0}c^{2}\n$$\n\n');
    expect(md).not.toContain('![');
    expect(md).not.toContain('displaystyle');
  });

  it('is its TeX in text, where it was nothing', () => {
    const text = extractArticle(WIKI_LIKE, 'https://physics.example/e').text;
    expect(text).toContain('described by the formula E=mc^{2}.');
    // Indented as the page indents it (in a <dd>), as a browser shows it.
    expect(text).toContain('\n\n  E_{0}=m_{0}c^{2}\n\n');
  });

  it('is the <math> element in html mode, in the picture\'s place, without Readability\'s wrapper', () => {
    const html = extractArticle(WIKI_LIKE, 'https://physics.example/e').html;
    expect(html).toMatch(/described by the formula <span[^>]*><math[^>]*alttext="\{\\displaystyle E=mc\^\{2\}\}"/);
    expect(html).not.toContain('<img');
    expect(html).not.toMatch(/readability-page|<DIV|<P>/);
  });
});

describe('MathML on its own', () => {
  it('with a TeX annotation and no picture is its TeX', () => {
    const a = extractArticle(
      page(`<p>${FILL} Area: <math><semantics><mi>A</mi><annotation encoding="TeX">A = \\pi r^2</annotation></semantics></math>. ${FILL}</p><p>${FILL}</p>`),
      'https://x.example/',
    );
    expect(a.markdown).toContain('Area: $A = \\pi r^2$.');
    expect(a.text).toContain('Area: A = \\pi r^2.');
  });

  it('without TeX is read as a line: scripts, fractions and roots marked', () => {
    const mathml =
      '<math><mi>x</mi><mo>=</mo><msup><mi>y</mi><mn>2</mn></msup><mo>+</mo><mfrac><mn>1</mn><mrow><mi>n</mi><mo>+</mo><mn>1</mn></mrow></mfrac><mo>+</mo><msub><mi>a</mi><mi>i</mi></msub><mo>+</mo><msqrt><mi>z</mi></msqrt></math>';
    const a = extractArticle(page(`<p>${FILL} So ${mathml} holds. ${FILL}</p><p>${FILL}</p>`), 'https://x.example/');
    expect(a.text).toContain('So x=y^2+1/(n+1)+a_i+√z holds.');
    // Escaped as Markdown text: an underscore inside a word is no emphasis as it is.
    expect(a.markdown).toContain('So x=y^2+1/(n+1)+a_i+√z holds.');
  });

  it('without TeX keeps its terms apart: bounds, a function\u2019s name, a matrix, words, fences (they ran together: "∑i=1nx_i", "limx→0(sinx)/x", "(1234)")', () => {
    const sum = '<math><munderover><mo>∑</mo><mrow><mi>i</mi><mo>=</mo><mn>1</mn></mrow><mi>n</mi></munderover><msub><mi>x</mi><mi>i</mi></msub></math>';
    const limit = '<math><munder><mo>lim</mo><mrow><mi>x</mi><mo>→</mo><mn>0</mn></mrow></munder><mfrac><mrow><mi>sin</mi><mi>x</mi></mrow><mi>x</mi></mfrac></math>';
    const matrix = '<math><mi>M</mi><mo>=</mo><mrow><mo>(</mo><mtable><mtr><mtd><mn>1</mn></mtd><mtd><mn>2</mn></mtd></mtr><mtr><mtd><mn>3</mn></mtd><mtd><mn>4</mn></mtd></mtr></mtable><mo>)</mo></mrow></math>';
    const words = '<math><mi>f</mi><mo>=</mo><mn>1</mn><mtext> if </mtext><mi>x</mi><mo>&gt;</mo><mn>0</mn></math>';
    const fenced = '<math><mfenced><mi>a</mi><mi>b</mi></mfenced><mo>,</mo><mover><mi>x</mi><mo>¯</mo></mover><mo>,</mo><mover><mi>X</mi><mi>T</mi></mover></math>';
    const a = extractArticle(page(`<p>${FILL} The mean is ${sum} over n, the limit ${limit} is 1, ${matrix}, ${words}, and ${fenced}. ${FILL}</p><p>${FILL}</p>`), 'https://x.example/');
    expect(a.text).toContain('The mean is ∑_(i=1)^n x_i over n, the limit lim_(x→0)(sin x)/x is 1, M=(1 2; 3 4), f=1 if x>0, and (a,b),x¯,X^T.');
    expect(a.markdown).toContain('The mean is ∑\\_(i=1)^n x_i over n, the limit lim\\_(x→0)(sin x)/x is 1, M=(1 2; 3 4), f=1 if x>0, and (a,b),x¯,X^T.');
  });

  it('in a table (the Markdown path that parses the article again) is its TeX too', () => {
    const md = markdownOf('<table><tr><th>law</th></tr><tr><td><math alttext="F=ma"><mi>F</mi></math></td></tr></table>');
    expect(md).toContain('| $F=ma$ |');
  });
});

describe('TeX a page keeps for a script to typeset', () => {
  it('in a <script type="math/tex"> (kramdown, MathJax 2) is the formula, where Readability left nothing', () => {
    const a = extractArticle(
      page(`<p>${FILL} The energy is <script type="math/tex">E_0 = m c^2</script> at rest. ${FILL}</p><script type="math/tex; mode=display">\\int_0^1 f(x)\\,dx</script><p>${FILL}</p>`),
      'https://x.example/',
    );
    expect(a.markdown).toContain('The energy is $E_0 = m c^2$ at rest.');
    expect(a.markdown).toContain('\n\n$$\n\\int_0^1 f(x)\\,dx\n$$\n\n');
    expect(a.text).toContain('The energy is E_0 = m c^2 at rest.');
    expect(a.html).toContain('<annotation encoding="application/x-tex">E_0 = m c^2</annotation>');
  });

  it('is written once when MathJax 2 already drew it (a rendered page): its preview and drawing go', () => {
    const drawn = '<span class="MathJax_Preview">x</span><span class="MathJax" id="MathJax-Element-1-Frame"><nobr><span class="math"><span class="mi">x</span></span></nobr></span>';
    const md = extractArticle(page(`<p>${FILL} Let ${drawn}<script type="math/tex" id="MathJax-Element-1">x</script> be given. ${FILL}</p><p>${FILL}</p>`), 'https://x.example/').markdown;
    expect(md).toContain('Let $x$ be given.');
  });

  it('written out as \\(…\\) or \\[…\\] in an element of class "math" (pandoc, Sphinx) is $TeX$, not escaped text', () => {
    const a = extractArticle(
      page(`<p>${FILL} Each <span class="math inline">\\(a_i^2 + b_{*}\\)</span> counts. ${FILL}</p><p><span class="math display">\\[\\sum_{i=1}^n i\\]</span></p><p>${FILL}</p>`),
      'https://x.example/',
    );
    expect(a.markdown).toContain('Each $a_i^2 + b_{*}$ counts.');
    expect(a.markdown).toContain('\n\n$$\n\\sum_{i=1}^n i\n$$\n\n');
    expect(a.text).toContain('Each a_i^2 + b_{*} counts.');
  });

  it('a "math" element of other text, and a script of another type, are left as they were', () => {
    const a = extractArticle(
      page(`<p>${FILL} See <span class="math">chapter (2)</span> and <script type="text/javascript">var hidden = 1;</script>the rest. ${FILL}</p><p>${FILL}</p>`),
      'https://x.example/',
    );
    expect(a.markdown).toContain('See chapter (2) and the rest.');
    expect(a.text).not.toContain('hidden');
  });
});

describe('what is left as it was', () => {
  it('an image whose alt merely looks like TeX, with no MathML of it, stays an image', () => {
    const md = extractArticle(page(`<p>${FILL} <img src="/f.png" alt="{\\displaystyle x}"> ${FILL}</p><p>${FILL}</p>`), 'https://x.example/').markdown;
    expect(md).toContain('![{\\\\displaystyle x}](https://x.example/f.png)');
  });

  it('a style group that closes before the end is not unwrapped', () => {
    const { document } = parseHTML('<math alttext="{\\displaystyle a}{b}"></math><math alttext="{\\textstyle \\frac{1}{2}}"></math>');
    const [first, second] = Array.from(document.querySelectorAll('math')) as unknown as MathNode[];
    expect(texOf(first!)).toBe('{\\displaystyle a}{b}');
    expect(texOf(second!)).toBe('\\frac{1}{2}');
    expect(linearMath(first!)).toBe('');
  });

  it('a page of thousands of formulas and pictures alike is read in one pass, not each formula against each picture', { timeout: 20_000 }, () => {
    const n = 20_000;
    const html = page(`<p>${FILL}</p><div>${'<math alttext="x"><mi>x</mi></math><img src="/x.png" alt="x">'.repeat(n)}</div><p>${FILL}</p>`);
    const a = extractArticle(html, 'https://x.example/');
    expect(a.text.split('x').length - 1).toBeGreaterThanOrEqual(n);
  });
});

