import type { Job } from '../../../../shared/types';
import { jobNameParts } from '../../lib/jobs';

/**
 * A job's name beside Sift's words: "קישורים · 3 URLs". The list's name sits in a <bdi>, so it
 * reads in its own direction and the count stays after it: as one string, the count of a
 * Hebrew or Arabic name joined the name's right-to-left run and showed before it
 * ("3 · קישורים URLs").
 */
export function JobName({ job }: { job: Pick<Job, 'label' | 'targetsTotal'> }): React.JSX.Element {
  const { label, count } = jobNameParts(job);
  if (!label) return <>{count}</>;
  // Two boxes, so a header one line high can cut the name and keep its count (styles.css).
  return (
    <>
      <bdi className="job-name-label">{label}</bdi>
      <span className="job-name-count"> · {count}</span>
    </>
  );
}
