import type { MarkedExtension } from 'marked';
import { escapeHtml } from '../../../shared/entities';

/**
 * GFM's footnotes, which the extractor writes for a page's notes ("[^1]" where one is cited,
 * "[^1]: …" for the note, its later blocks indented four spaces) and marked does not read: it
 * showed "[^1]" as typed, and took "[^1]: Smith" for a link's definition, so the note was gone
 * and its mark a link to "Smith". A mark is raised; a note is its blocks, its mark first, where
 * the Markdown has it (the extractor puts the notes where the page did, at its end). A mark
 * links to its note and the note's mark back to the first place it is cited: a reader saw "1"
 * and scrolled for its note.
 */
const NOTE = /^\[\^([^\s\]]+)\]:[ \t]*([^\n]*(?:\n+(?: {4}|\t)[^\n]*)*)(?:\n|$)/;
const NOTE_ANYWHERE = /^\[\^[^\s\]]+\]:/m;
const NOTE_LABELS = /^\[\^([^\s\]]+)\]:/gm;
const MARK = /^\[\^([^\s\]]+)\](?!:)/;

/**
 * The labels of the notes in the Markdown being read, set before each parse (marked parses at
 * once, one document at a time). A mark without its note is text as written: "[^abc]" in prose
 * is a regular expression's class, and was raised as a footnote "abc".
 */
let noted = new Set<string>();
/** The labels whose first mark has been written, which a note's link leads back to. */
let cited = new Set<string>();

/**
 * A feed's notes, labelled by their post's place in the feed (feed.ts: "2-1" is post 2's note 1)
 * so that each post's "1" is a note of its own. The preview showed "2-1", which no post's page
 * shows. Read so only in a feed's result (forFeed), and when every note of the Markdown is
 * labelled so: "[^2-1]" beside "[^b]" is a label as its writer chose it, and a book's page
 * numbers its notes by chapter ("1-1", "2-1"), which showed as "1" and "1".
 */
const POST_LABEL = /^([1-9]\d*)-(.+)$/;
let byPost = false;
let inFeed = false;

/** Whether the next Markdown read is a feed's, whose notes may be labelled by post. */
export const forFeed = (feed: boolean): void => {
  inFeed = feed;
};

/** What a reader is shown of a label, and what its links are named by: a post's note by its own number, and its post. */
function shown(label: string): { text: string; name: string } {
  const post = byPost ? POST_LABEL.exec(label) : null;
  return post ? { text: post[2]!, name: `${post[2]!} of post ${post[1]!}` } : { text: label, name: label };
}

/**
 * The ids of a note and of its first mark. Prefixed: a page's own HTML in the result may hold
 * an "fn-1" of its own, and the first id of two is the one a link finds.
 */
const noteId = (label: string): string => `sift-note-${label}`;
const markId = (label: string): string => `sift-cite-${label}`;
/** A link to an id in the preview, which ResultView follows without leaving the app's screen. */
const linkTo = (id: string, own: string | undefined, name: string, label: string): string =>
  `<a href="#${escapeHtml(encodeURIComponent(id))}"${own ? ` id="${escapeHtml(own)}"` : ''} aria-label="${escapeHtml(name)}">${escapeHtml(label)}</a>`;

export const footnotes: MarkedExtension = {
  hooks: {
    preprocess(md) {
      noted = new Set(Array.from(md.matchAll(NOTE_LABELS), (m) => m[1]!));
      cited = new Set();
      byPost = inFeed && noted.size > 0 && [...noted].every((label) => POST_LABEL.test(label));
      return md;
    },
  },
  extensions: [
    {
      name: 'footnote',
      level: 'block',
      start: (src) => src.match(NOTE_ANYWHERE)?.index,
      tokenizer(src) {
        const m = NOTE.exec(src);
        if (!m) return undefined;
        const body = m[2]!.replace(/^(?: {4}|\t)/gm, '');
        return { type: 'footnote', raw: m[0], label: m[1]!, tokens: this.lexer.blockTokens(body, []) };
      },
      renderer(token) {
        const label = token['label'] as string;
        const { text, name } = shown(label);
        const mark = `<sup>${linkTo(markId(label), noteId(label), `Back to where note ${name} is cited`, text)}</sup>`;
        const blocks = this.parser.parse(token.tokens ?? []);
        return blocks.startsWith('<p>') ? `<p>${mark} ${blocks.slice(3)}` : `<p>${mark}</p>\n${blocks}`;
      },
    },
    {
      name: 'footnoteMark',
      level: 'inline',
      start: (src) => {
        const at = src.indexOf('[^');
        return at < 0 ? undefined : at;
      },
      tokenizer(src) {
        const m = MARK.exec(src);
        return m && noted.has(m[1]!) ? { type: 'footnoteMark', raw: m[0], label: m[1]! } : undefined;
      },
      renderer: (token) => {
        const label = token['label'] as string;
        const first = !cited.has(label);
        cited.add(label);
        const { text, name } = shown(label);
        return `<sup>${linkTo(noteId(label), first ? markId(label) : undefined, `Note ${name}`, text)}</sup>`;
      },
    },
  ],
};
