/** Types of pdf-layout.mjs (plain JavaScript because the PDF worker loads it). */
export interface TextItemLike {
  str?: string;
  dir?: string;
  transform?: number[];
  width?: number;
  hasEOL?: boolean;
}
export function pageText(content: { items: TextItemLike[] }): { text: string; types: number[]; columns: number; narrowColumns: boolean; bidiLines: number; heading: string };
export function logicalLine(visual: string): string;
export function presentationToLetters(s: string): string;
export function accentsOnLetters(s: string): string;
