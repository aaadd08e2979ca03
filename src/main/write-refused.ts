/**
 * Why the file system refused a write, in words, by Node's error code; undefined for a code
 * with no words here. A read-only disk is told apart from a folder's permissions: "change its
 * permissions" cannot make a mounted image or a locked card take writes.
 */
const WHY: Readonly<Record<string, string>> = {
  EROFS: 'it is on a read-only disk',
  EACCES: 'permission denied',
  EPERM: 'permission denied',
  ENOSPC: 'the disk is full',
  EDQUOT: 'the disk is full',
};

export const writeRefusedWhy = (code: string | undefined): string | undefined => (code ? WHY[code] : undefined);
