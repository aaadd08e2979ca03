/**
 * An address shown without its scheme, or cut in its middle, is copied whole: pasted elsewhere,
 * "127.0.0.1:4080/a" or "example.org/a…/b" is no link to follow.
 */
export function copyWholeAddress(url: string): (e: React.ClipboardEvent<HTMLElement>) => void {
  return (e) => {
    const range = getSelection()?.rangeCount ? getSelection()?.getRangeAt(0) : undefined;
    // A selection reaching past the address (a search hit's snippet too) is copied as it reads.
    if (!range || !e.currentTarget.contains(range.commonAncestorContainer)) return;
    e.clipboardData.setData('text/plain', url);
    e.preventDefault();
  };
}
