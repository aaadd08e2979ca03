/**
 * A box a pointer opens over a word of the text (a person's card, a term's definition) sits
 * inside the element that holds the word. Its text ran into the sentence: "threatened to kill
 * Rep. Ilhan OmarIlhan OmarHillicon Valley: Progressives oppose…". The box goes, the word stays.
 */
import { describe, expect, it } from 'vitest';
import { extractArticle } from '../../src/main/fetch/html';

const FILL = 'The harbour board met on Monday to hear the pilots, who asked for a second tug before the winter storms.';
const page = (para: string): string =>
  `<!doctype html><html><head><title>Harbour</title></head><body><main><article><h1>Harbour</h1><p>${FILL}</p><p>${para}</p><p>${FILL}</p></article></main></body></html>`;

const CARD =
  'The motion came from Councillor <span class="rollover-people"><a class="rollover-people-link" href="/people/ada-quay">Ada Quay</a>' +
  '<span class="rollover-people-block"><span><img src="/p/ada.jpg" alt=""><a class="name" href="/people/ada-quay">Ada Quay</a>' +
  '<a class="people-articles" href="/a/1">Budget vote delayed again</a> <a class="people-articles" href="/a/2">Ferry fares to rise</a></span></span></span> (Ind.), who chairs the board.';

describe('a pop-up box over a word', () => {
  it("is left out of the text and the Markdown, and the word it is about stays in its sentence", () => {
    const { text, markdown } = extractArticle(page(CARD), 'https://news.example/harbour');
    expect(text).toContain('The motion came from Councillor Ada Quay (Ind.), who chairs the board.');
    expect(markdown).toContain('The motion came from Councillor [Ada Quay](https://news.example/people/ada-quay) (Ind.), who chairs the board.');
    expect(text).not.toContain('Budget vote');
    expect(markdown).not.toContain('ada.jpg');
  });

  it("leaves a term's tooltip out and keeps the term", () => {
    const { text } = extractArticle(
      page('A <span class="tooltip">bollard<span class="tooltiptext">a short post on a quay that ropes are tied to</span></span> broke loose in the gale.'),
      'https://news.example/harbour',
    );
    expect(text).toContain('A bollard broke loose in the gale.');
  });

  it('keeps an element so named that holds the text itself, with no word before it', () => {
    const { text } = extractArticle(page('<span class="popup-note"><span class="tooltip-body">Pilots board at the outer buoy.</span></span>'), 'https://news.example/harbour');
    expect(text).toContain('Pilots board at the outer buoy.');
  });
});
