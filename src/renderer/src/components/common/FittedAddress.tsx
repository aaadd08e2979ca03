import { useMemo, useRef } from 'react';
import { readableUrl } from '../../../../shared/readable-url';
import { copyWholeAddress } from '../../lib/copy-address';
import { fitText, useColumnFit } from '../../lib/fit-text';
import { bareAddress, cutAddress } from '../../lib/format';

/**
 * An address without its scheme, its path cut in its middle to the room it has (cutAddress, fitText), whole in its
 * tooltip and when copied: cut at its end by CSS, a search hit's "127.0.0.1:40123/annual-reports/
 * of-the-harbour-bo…" lost the last path part, what tells the pages of one site apart.
 * `column` and `room`: where its room is read, when its own box grows with its text (a flex
 * item); by default its own box, which a grid cell sizes.
 */
export function FittedAddress({
  url,
  className,
  column,
  room,
  testId,
}: {
  url: string;
  className: string;
  column?: React.RefObject<HTMLElement | null>;
  room?: (col: HTMLElement, cell: HTMLElement) => number;
  testId?: string;
}): React.JSX.Element {
  const ref = useRef<HTMLSpanElement>(null);
  const fit = useColumnFit(column ?? ref, ref, room);
  const bare = bareAddress(url);
  const shown = useMemo(() => (fit ? (fitText(bare, (n) => cutAddress(bare, n), fit.width, fit.font) ?? bare) : bare), [bare, fit]);
  return (
    <span ref={ref} className={className} title={readableUrl(url)} onCopy={copyWholeAddress(url)} data-testid={testId}>
      {shown}
    </span>
  );
}
