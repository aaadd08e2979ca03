import { withoutBidiControls } from '../../../../shared/shown';

/**
 * A snippet with its matched words in <mark>, without bidi controls, as a title is shown: an
 * override in the page's text turned the rest of the snippet around ("Invoice enod exe.txt").
 * The marks' offsets are the stored text's, so each piece drops its own after the cut.
 */
export function Snippet({ text, marks, className = 'snippet' }: { text: string; marks: [number, number][]; className?: string }): React.JSX.Element {
  const parts: React.ReactNode[] = [];
  let at = 0;
  marks.forEach(([a, b], i) => {
    if (a > at) parts.push(withoutBidiControls(text.slice(at, a)));
    parts.push(<mark key={i}>{withoutBidiControls(text.slice(a, b))}</mark>);
    at = b;
  });
  if (at < text.length) parts.push(withoutBidiControls(text.slice(at)));
  return <span className={className}>{parts}</span>;
}
