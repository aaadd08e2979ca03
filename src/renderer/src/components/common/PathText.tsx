import { Fragment } from 'react';

/**
 * A file path that wraps after a folder separator when it must: with the export dialog's
 * break-all it split a folder's name ("…to /t" above "mp/sift-ui-export-…"). A name longer than
 * a line still breaks inside it (the CSS's overflow-wrap).
 */
export function PathText({ path }: { path: string }): React.JSX.Element {
  const parts = path.split(/(?<=[/\\])/);
  return (
    <code className="path-text">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </code>
  );
}
