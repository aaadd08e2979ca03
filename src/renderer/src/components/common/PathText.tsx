import { Fragment } from 'react';

// A folder's name up to this long is kept on one line: the export dialog's line holds about 60
// of the code font's characters at 1024 px, so a longer name would run out of the dialog.
const WHOLE_PART = 48;

/**
 * The path in pieces a line may end after: each folder with its separator, the root ("/",
 * "C:\", "\\") joined to the first one, as "…to /" above "tmp/sift-…" left the root alone.
 */
export function pathParts(path: string): string[] {
  const parts = path.split(/(?<=[/\\])/);
  let root = 0;
  while (root < parts.length - 1 && /^(?:[A-Za-z]:)?[/\\]$/.test(parts[root]!)) root++;
  return [parts.slice(0, root + 1).join(''), ...parts.slice(root + 1)];
}

/**
 * A file path that wraps after a folder separator when it must: with the export dialog's
 * break-all it split a folder's name ("…to /t" above "mp/sift-ui-export-…"), and Chromium
 * still broke one after a hyphen ("sift-ui-export-" above "hC8eTG/"). A name longer than
 * WHOLE_PART still breaks inside it (the CSS's overflow-wrap).
 */
export function PathText({ path }: { path: string }): React.JSX.Element {
  const parts = pathParts(path);
  return (
    <code className="path-text">
      {parts.map((part, i) => (
        <Fragment key={i}>
          {part.length <= WHOLE_PART ? <span className="path-part">{part}</span> : part}
          {i < parts.length - 1 && <wbr />}
        </Fragment>
      ))}
    </code>
  );
}
