import type { SearchBoxName } from '../store/search';

/*
 * The arrows between a search box and its hits. The sidebar's box shows its hits in the view
 * on the right, five Tab stops away (the job list, Activity, Settings, About, the view's own
 * box): a keyboard user who typed a search pressed Tab five times to reach the first hit.
 */

/** The box each box's hits were entered from with Down, to go back to with Up. */
const enteredFrom: Partial<Record<SearchBoxName, HTMLElement>> = {};

const hitsOf = (box: SearchBoxName): HTMLButtonElement[] =>
  Array.from(document.querySelectorAll<HTMLButtonElement>(`[data-testid="search-results-${box}"] [data-testid="search-hit"]`));

/** Down in a search box: the focus goes to its first hit; false when it has none yet. */
export function enterHits(box: SearchBoxName, from: HTMLElement): boolean {
  const first = hitsOf(box)[0];
  if (!first) return false;
  enteredFrom[box] = from;
  first.focus();
  return true;
}

/** Up and Down among the hits; Up on the first goes back to the box they were entered from. */
export function moveInHits(e: React.KeyboardEvent, box: SearchBoxName): void {
  if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
  const hits = hitsOf(box);
  const at = hits.indexOf(document.activeElement as HTMLButtonElement);
  if (at < 0) return;
  e.preventDefault();
  if (e.key === 'ArrowDown') return void hits[Math.min(hits.length - 1, at + 1)]?.focus();
  if (at > 0) return void hits[at - 1]?.focus();
  const box0 = enteredFrom[box];
  if (box0?.isConnected) box0.focus();
}
