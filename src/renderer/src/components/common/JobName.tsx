import { useMemo, useRef } from 'react';
import type { Job } from '../../../../shared/types';
import { cutLabel, listPart, namedHosts } from '../../../../shared/job-label';
import { useShallow } from 'zustand/react/shallow';
import { useStore } from '../../store';
import { fitBeside, roomBesideOthers, useColumnFit, type ColumnFit } from '../../lib/fit-text';
import { jobNameParts, namesAskedApart, shownLabel } from '../../lib/jobs';

/** No other job of this job's list: its name is cut as any is. */
const NO_OTHERS: readonly string[] = [];

/**
 * A job's name as the job list and the header show it, cut to `fit` beside its count: the same
 * name in both (shownLabel), cut where it differs from the other runs of its list (cutLabel).
 */
export function useCutName(label: string, count: string, fit: ColumnFit | null): string {
  // Compared item by item: namesAskedApart's lists are new ones on each progress event.
  const others = useStore(useShallow((s) => (label && namesAskedApart(s.jobs).get(listPart(label))) || NO_OTHERS));
  const name = useStore((s) => shownLabel(label, s.jobs));
  // As `name`: cutLabel tells names apart by their list's part, port and all or none.
  const namedOthers = useMemo(() => (name === label ? others : others.map((o) => namedHosts(o)?.withoutPorts ?? o)), [name, label, others]);
  return useMemo(() => fitBeside(name, ` · ${count}`, fit, (n) => cutLabel(name, n, namedOthers)), [name, count, fit, namedOthers]);
}

/**
 * A job's name beside Sift's words: "קישורים · 3 URLs". The list's name sits in a <bdi>, so it
 * reads in its own direction and the count stays after it: as one string, the count of a
 * Hebrew or Arabic name joined the name's right-to-left run and showed before it
 * ("3 · קישורים URLs").
 * `line`: the row the name shares with others (the header's badge and id); the name is then cut
 * as the job list cuts it (cutLabel), to the room left beside them. Cut at its end by CSS, the
 * header read "127.0.0.1:41234/annual-board-mee…" at 800 px, the folder's end gone.
 */
export function JobName({ job, line }: { job: Pick<Job, 'label' | 'targetsTotal'>; line?: React.RefObject<HTMLElement | null> }): React.JSX.Element {
  const { label, count } = jobNameParts(job);
  const labelRef = useRef<HTMLElement>(null);
  const none = useRef<HTMLElement>(null);
  const fit = useColumnFit(line ?? none, labelRef, roomBesideOthers);
  const shown = useCutName(label, count, fit);
  if (!label) return <>{count}</>;
  // Two boxes, so a header one line high can cut the name and keep its count (styles.css).
  return (
    <>
      <bdi className="job-name-label" ref={labelRef}>
        {shown}
      </bdi>
      <span className="job-name-count"> · {count}</span>
    </>
  );
}
