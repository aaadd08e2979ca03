// @joplin/turndown-plugin-gfm ships no types; these are the two plugins Sift uses.
declare module '@joplin/turndown-plugin-gfm' {
  import type TurndownService from 'turndown';
  export const gfm: TurndownService.Plugin;
  export const tables: TurndownService.Plugin;
}

// @mixmark-io/domino (turndown's own HTML parser) ships no types; markdownOf uses one call.
declare module '@mixmark-io/domino' {
  export function createDocument(html?: string): Document;
}
