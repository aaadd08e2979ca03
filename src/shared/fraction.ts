const FRACTION_PAST_LATIN1 = /[\u2150-\u215F\u2189]/;

/**
 * Whether text holds a vulgar fraction (½ ⅓ ¾), which search's index (since its step 21) and grep
 * read as people type it, 1/2. ¼ ½ ¾ are looked for as strings: a class holding Latin-1 reads
 * every character of one-byte text.
 */
export const hasFraction = (text: string): boolean => text.includes('\u00BD') || text.includes('\u00BC') || text.includes('\u00BE') || FRACTION_PAST_LATIN1.test(text);
