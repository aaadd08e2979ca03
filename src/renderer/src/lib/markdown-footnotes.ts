import type { MarkedExtension } from 'marked';
import { escapeHtml } from '../../../shared/entities';

/**
 * GFM's footnotes, which the extractor writes for a page's notes ("[^1]" where one is cited,
 * "[^1]: …" for the note, its later blocks indented four spaces) and marked does not read: it
 * showed "[^1]" as typed, and took "[^1]: Smith" for a link's definition, so the note was gone
 * and its mark a link to "Smith". A mark is raised; a note is its blocks, its mark first, where
 * the Markdown has it (the extractor puts the notes where the page did, at its end).
 */
const NOTE = /^\[\^([^\s\]]+)\]:[ \t]*([^\n]*(?:\n+(?: {4}|\t)[^\n]*)*)(?:\n|$)/;
const NOTE_ANYWHERE = /^\[\^[^\s\]]+\]:/m;
const MARK = /^\[\^([^\s\]]+)\](?!:)/;

export const footnotes: MarkedExtension = {
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
        const mark = `<sup>${escapeHtml(token['label'] as string)}</sup>`;
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
        return m ? { type: 'footnoteMark', raw: m[0], label: m[1]! } : undefined;
      },
      renderer: (token) => `<sup>${escapeHtml(token['label'] as string)}</sup>`,
    },
  ],
};
