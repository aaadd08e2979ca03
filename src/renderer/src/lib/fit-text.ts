import { useEffect, useState } from 'react';

/** A column's width and the font of its cells, for fitText. */
export interface ColumnFit {
  width: number;
  font: string;
}

const columnWidth = (col: HTMLElement): number => col.clientWidth;

/**
 * A column's width, again whenever it is resized, and the font a cell of it has (read from
 * `probe`, a hidden cell of the rows' own style, as a header's font may differ).
 */
export function useColumnFit(
  column: React.RefObject<HTMLElement | null>,
  probe: React.RefObject<HTMLElement | null>,
  room: (col: HTMLElement, cell: HTMLElement) => number = columnWidth,
): ColumnFit | null {
  const [fit, setFit] = useState<ColumnFit | null>(null);
  useEffect(() => {
    const col = column.current;
    const cell = probe.current;
    if (!col || !cell) return;
    const measure = (): void => {
      // A pixel to spare: clientWidth is rounded, measured text is not.
      const width = room(col, cell) - 1;
      const font = getComputedStyle(cell).font;
      if (width > 0) setFit((old) => (old && old.width === width && old.font === font ? old : { width, font }));
    };
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(col);
    // What shares the column's line (a header's badge, its id) takes room when it changes.
    for (const other of col.children) observer.observe(other);
    return () => observer.disconnect();
  }, [column, probe, room]);
  return fit;
}

/**
 * The room left on `col`'s line for the child that holds `cell`, beside its other children and
 * the gaps between them; the whole line where they wrap below it (a window 600 px or less).
 */
export function roomBesideOthers(col: HTMLElement, cell: HTMLElement): number {
  const style = getComputedStyle(col);
  if (style.flexWrap === 'wrap') return col.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0);
  const gap = parseFloat(style.columnGap) || 0;
  const others = Array.from(col.children).filter((c) => !c.contains(cell));
  const taken = others.reduce((sum, c) => sum + c.getBoundingClientRect().width + gap, 0);
  return col.clientWidth - (parseFloat(style.paddingLeft) || 0) - (parseFloat(style.paddingRight) || 0) - taken;
}

/**
 * `label` cut by `cut` to fit beside `tail` (its count, kept whole) in a measured column; whole
 * until measured, CSS's ellipsis then. The job list's names and the job header's both: cut at
 * its end, one site's lists all read "127.0.0.1:4123…".
 */
export function fitBeside(label: string, tail: string, fit: ColumnFit | null, cut: (n: number) => string): string {
  if (!fit || !label) return label;
  const room = fit.width - (textWidth(tail, fit.font) ?? 0);
  return fitText(label, cut, room, fit.font) ?? label;
}

let measureCtx: CanvasRenderingContext2D | null | undefined;

/** The width of `text` in `font`, measured; null where no canvas can measure it. */
export function textWidth(text: string, font: string): number | null {
  measureCtx ??= document.createElement('canvas').getContext('2d');
  if (!measureCtx) return null;
  measureCtx.font = font;
  return measureCtx.measureText(text).width;
}

/**
 * `full` when it fits `width` in `font`, else the longest `cut(n)` (n characters) that does,
 * measured, so CSS never has to cut the end off: a URL cut by an ellipsis at its end lost the
 * path's end, which is what tells the rows of one site apart. Null where nothing can measure.
 */
export function fitText(full: string, cut: (n: number) => string, width: number, font: string): string | null {
  const whole = textWidth(full, font);
  if (whole === null) return null;
  if (whole <= width) return full;
  let lo = 8;
  let hi = full.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if ((textWidth(cut(mid), font) ?? Infinity) <= width) lo = mid;
    else hi = mid - 1;
  }
  return cut(lo);
}
