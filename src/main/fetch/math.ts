/**
 * Formulas (MathML) as their TeX, or as a line of text where a page gives no TeX.
 *
 * A page often writes each formula twice: a MathML <math> element for screen readers, hidden,
 * with the formula's TeX source in an <annotation> (or its alttext), and a picture of the
 * formula whose alt text is that TeX. Readability keeps the picture and drops the hidden
 * MathML, so the Markdown had an image per formula (its alt the TeX, escaped: "E\_{0}") and
 * the text had nothing where the formula was ("Einstein's formula: ."). A <math> read as it
 * is gave its letters run together: x = y² came out "x=y2".
 *
 * Before Readability reads the page, liftMath puts each hidden <math> where its picture was;
 * markdownOf writes a formula as $TeX$ (a display formula as a $$ block), textOf as its TeX,
 * and the html mode keeps the <math> element, which browsers render.
 */

/** The DOM of either parser (linkedom for the page, domino for turndown), reduced to what is read here. */
export interface MathNode {
  nodeType: number;
  nodeName: string;
  textContent: string | null;
  childNodes: ArrayLike<unknown>;
  parentNode?: MathNode | null;
  getAttribute?(name: string): string | null;
  querySelectorAll?(selectors: string): ArrayLike<MathNode>;
  replaceWith?(...nodes: unknown[]): void;
}

const TEX_ENCODINGS = new Set(['application/x-tex', 'text/x-tex', 'tex', 'application/x-latex', 'latex']);

export const isMath = (node: { nodeName: string }): boolean => node.nodeName.toLowerCase() === 'math';

/** Whether a math element is a display formula (a block of its own), not one inside a line. */
export const isDisplayMath = (node: MathNode): boolean => node.getAttribute?.('display')?.toLowerCase() === 'block';

/** The TeX source a <math> element carries: its TeX annotation, else its alttext; undefined when it has neither. */
export function texOf(math: MathNode): string | undefined {
  for (const a of Array.from(math.querySelectorAll?.('annotation') ?? [])) {
    if (TEX_ENCODINGS.has((a.getAttribute?.('encoding') ?? '').trim().toLowerCase())) {
      const tex = (a.textContent ?? '').trim();
      if (tex) return unwrapStyle(tex);
    }
  }
  const alt = (math.getAttribute?.('alttext') ?? '').trim();
  return alt ? unwrapStyle(alt) : undefined;
}

/**
 * "{\displaystyle E=mc^{2}}" is "E=mc^{2}": \displaystyle and its kin only size a formula, and
 * the braces around them are one group only when the first closes at the very end
 * ("{\displaystyle a}{b}" stays as it is).
 */
function unwrapStyle(tex: string): string {
  const m = /^\{\s*\\(?:displaystyle|textstyle|scriptstyle|scriptscriptstyle)\b\s*/.exec(tex);
  if (!m || !tex.endsWith('}')) return tex;
  let depth = 0;
  for (let i = 0; i < tex.length; i++) {
    const c = tex[i];
    if (c === '\\') i++;
    else if (c === '{') depth++;
    else if (c === '}' && --depth === 0 && i !== tex.length - 1) return tex;
  }
  return depth === 0 ? tex.slice(m[0].length, -1).trim() : tex;
}

/** A group of more than one character in parentheses, so "x^(n+1)" reads as it is meant. */
const group = (s: string): string => {
  const t = s.trim();
  return t.length > 1 ? `(${t})` : t;
};

/** Elements that put scripts or limits on a base: after one, a letter or digit starts a new term. */
const SCRIPTED = new Set(['msup', 'msub', 'msubsup', 'munder', 'mover', 'munderover', 'mmultiscripts']);
/** Marks that an <mover> (an accent: x̄, â, ẋ, a vector's arrow) puts over its base, read after it. */
const ACCENTS = new Set(['\u00af', '\u02c9', '\u0304', '^', '\u02c6', '\u0302', '~', '\u02dc', '\u0303', '\u02d9', '\u0307', '\u00a8', '\u0308', '\u2192', '\u20d7', '\u2190', '\u2194', '\u203e', '\u23de', '\u23df']);

/**
 * MathML without TeX read as a line: scripts with ^ and _, a fraction with /, a root with √;
 * a sum's or a limit's bounds as scripts ("∑_(i=1)^n x_i", "lim_(x→0)"), a matrix's rows apart
 * by ";" and its cells by blanks ("(1 2; 3 4)"), a function's name apart from what follows
 * ("sin x"), and the words of <mtext> apart ("if x>0"). Those ran together: "∑i=1nx_i",
 * "limx→0(sinx)/x", "(1234)", "ifx>0".
 */
export function linearMath(node: MathNode): string {
  const element = (c: MathNode): boolean => c.nodeType === 1;
  // A term's parts side by side, a blank between two where letters or digits would otherwise
  // run together after a scripted element or a function's name (an <mi> of several letters).
  const row = (kids: MathNode[]): string => {
    let out = '';
    let apart = false;
    for (const k of kids) {
      const s = read(k);
      if (!s) continue;
      if (apart && /[\p{L}\p{N}]$/u.test(out) && /^[\p{L}\p{N}(]/u.test(s)) out += ' ';
      out += s;
      const name = k.nodeType === 1 ? k.nodeName.toLowerCase() : '';
      apart = SCRIPTED.has(name) || (name === 'mi' && /^\p{L}{2,}$/u.test(s));
    }
    return out;
  };
  const read = (n: MathNode): string => {
    if (n.nodeType === 3) return (n.textContent ?? '').trim();
    const name = n.nodeName.toLowerCase();
    if (name === 'annotation' || name === 'annotation-xml') return '';
    const kids = Array.from(n.childNodes as ArrayLike<MathNode>).filter(element);
    const at = (i: number): string => (kids[i] ? read(kids[i]) : '');
    switch (name) {
      case 'msup':
        return `${at(0)}^${group(at(1))}`;
      case 'msub':
      case 'munder':
        return `${at(0)}_${group(at(1))}`;
      case 'msubsup':
      case 'munderover':
        return `${at(0)}_${group(at(1))}^${group(at(2))}`;
      case 'mover': {
        const over = at(1);
        return n.getAttribute?.('accent')?.toLowerCase() === 'true' || ACCENTS.has(over) ? `${at(0)}${over}` : `${at(0)}^${group(over)}`;
      }
      case 'mfrac':
        return `${group(at(0))}/${group(at(1))}`;
      case 'msqrt':
        return `√${group(row(kids))}`;
      case 'mroot':
        return `${group(at(1))}√${group(at(0))}`;
      case 'mtext':
        return ` ${(n.textContent ?? '').replace(/\s+/g, ' ').trim()} `;
      case 'mtable':
        return kids.map(read).filter(Boolean).join('; ');
      case 'mtr':
      case 'mlabeledtr':
        return kids.map((c) => read(c).trim()).filter(Boolean).join(' ');
      case 'mfenced': {
        const attr = (a: string, d: string): string => n.getAttribute?.(a) ?? d;
        const separators = attr('separators', ',').replace(/\s+/g, '');
        const inner = kids.map((c, i) => `${i > 0 ? (separators[Math.min(i - 1, separators.length - 1)] ?? '') : ''}${read(c)}`).join('');
        return `${attr('open', '(').trim()}${inner}${attr('close', ')').trim()}`;
      }
      default:
        return row(Array.from(n.childNodes as ArrayLike<MathNode>).filter((c) => c.nodeType === 1 || c.nodeType === 3));
    }
  };
  return read(node).replace(/\s+/g, ' ').trim();
}

/** A formula as text: its TeX where the page gives it, else its MathML read as a line. */
export const mathText = (math: MathNode): string => texOf(math) ?? linearMath(math);

/** How many ancestors up a formula's picture may sit from its MathML (a wrapper each, as pages nest them). */
const PICTURE_REACH = 3;

/** How many pictures of the same alt text one formula looks at: a page of thousands alike must not make this quadratic. */
const PICTURES_TRIED = 8;

/**
 * Puts each <math> that has a picture of itself nearby (an <img> whose alt is the formula's
 * TeX or alttext, in the same wrapper) in the picture's place: the picture goes, and the
 * MathML leaves the wrapper that hid it. A <math> without such a picture stays where it is.
 * Pictures are found by their alt text, looked up once for the page.
 */
export function liftMath(root: MathNode): void {
  const maths = Array.from(root.querySelectorAll?.('math') ?? []);
  if (maths.length === 0) return;
  const pictures = new Map<string, MathNode[]>();
  for (const img of Array.from(root.querySelectorAll?.('img[alt]') ?? [])) {
    const alt = (img.getAttribute?.('alt') ?? '').trim();
    if (!alt) continue;
    const list = pictures.get(alt);
    if (list) list.push(img);
    else pictures.set(alt, [img]);
  }
  if (pictures.size === 0) return;
  for (const math of maths) {
    const alts = new Set([texOf(math), (math.getAttribute?.('alttext') ?? '').trim()].filter((s): s is string => !!s));
    for (const a of Array.from(math.querySelectorAll?.('annotation') ?? [])) alts.add((a.textContent ?? '').trim());
    const wrappers = new Set<MathNode>();
    for (let w = math.parentNode, level = 0; w && level < PICTURE_REACH; w = w.parentNode, level++) wrappers.add(w);
    const within = (img: MathNode): boolean => {
      for (let p = img.parentNode, level = 0; p && level < PICTURE_REACH; p = p.parentNode, level++) if (wrappers.has(p)) return true;
      return false;
    };
    for (const alt of alts) {
      const list = pictures.get(alt);
      const at = list?.slice(0, PICTURES_TRIED).findIndex(within) ?? -1;
      if (!list || at < 0) continue;
      const [picture] = list.splice(at, 1);
      picture!.replaceWith?.(math);
      break;
    }
  }
}

/** MathJax's script of TeX source (kramdown and MathJax 2 write them): "math/tex", a display one with "; mode=display". */
const TEX_SCRIPT = /^\s*math\/tex\s*(?:;\s*mode\s*=\s*(display)\s*)?$/i;
/** A formula written out whole for MathJax or KaTeX to typeset (pandoc, Sphinx): \(…\) in a line, \[…\] on its own. */
const TEX_DELIMITED = /^\s*\\(?:\(([\s\S]+)\\\)|\[([\s\S]+)\\\])\s*$/;
/**
 * Whether `el` is what MathJax 2 drew of the script just after it: its preview, or its drawing,
 * which is (or, for a display formula, holds) the element of id "<the script's id>-Frame".
 */
function drawnBy(el: Element, script: Element): boolean {
  if (/(?:^|\s)MathJax_Preview(?:\s|$)/.test(el.getAttribute('class') ?? '')) return true;
  const frame = script.id ? `${script.id}-Frame` : '';
  return !!frame && (el.id === frame || Array.from(el.querySelectorAll('[id]')).some((d) => d.id === frame));
}

/**
 * Formulas a page keeps as TeX for a script to typeset, as a <math> element carrying that TeX,
 * which markdownOf writes as $TeX$ and textOf as the TeX:
 * - a <script type="math/tex">: Readability removes every script, so the formula was nothing
 *   ("the energy is  where"); MathJax 2's drawing of it just before, on a rendered page, goes;
 * - an element of class "math" whose text is \(…\) or \[…\] (pandoc, Sphinx): its TeX was
 *   escaped as text, "\\(a\_i^2\\)".
 */
export function texFormulas(document: Document): void {
  for (const script of Array.from(document.querySelectorAll('script[type]'))) {
    const m = TEX_SCRIPT.exec(script.getAttribute('type') ?? '');
    if (!m) continue;
    for (let prev = script.previousElementSibling; prev && drawnBy(prev, script); prev = script.previousElementSibling) prev.remove();
    const tex = (script.textContent ?? '').trim();
    if (tex) script.replaceWith(formula(document, tex, m[1] !== undefined));
    else script.remove();
  }
  for (const el of Array.from(document.querySelectorAll('.math'))) {
    if (el.firstElementChild) continue;
    const m = TEX_DELIMITED.exec(el.textContent ?? '');
    if (!m) continue;
    el.replaceChildren(formula(document, (m[1] ?? m[2]!).trim(), m[2] !== undefined));
  }
}

/** A <math> element of the TeX given, shown as that TeX where a browser renders it (html mode). */
function formula(document: Document, tex: string, display: boolean): Element {
  const math = document.createElement('math');
  if (display) math.setAttribute('display', 'block');
  const semantics = document.createElement('semantics');
  const shown = document.createElement('mtext');
  shown.textContent = tex;
  const annotation = document.createElement('annotation');
  annotation.setAttribute('encoding', 'application/x-tex');
  annotation.textContent = tex;
  semantics.append(shown, annotation);
  math.append(semantics);
  return math;
}
