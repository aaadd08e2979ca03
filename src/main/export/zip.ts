/**
 * A zip written entry by entry into an OutFile, in the very bytes yazl 3.3.1 writes for
 * entries added whole (addBuffer) or as streams (UTF-8 names, deflate at zlib's default
 * level, mode 0664, an Info-ZIP "UT" time in the central directory, zip64 records from
 * 65,535 entries or past 4 GiB), so a zip unpacks to exactly what it did.
 *
 * Why not yazl: it ran every entry through five streams and a zlib stream of its own, set
 * up and torn down per entry, with the data handed to the thread pool and written to the
 * file a few dozen bytes at a time: a zip of 100,000 small results took 23 s of CPU (8.8 s
 * of it in the kernel) where JSONL of the same job takes 2.7 s. Here a small entry is
 * compressed in one call, its records built in place and written gathered (OutFile), and
 * the central directory kept in 64 KB blocks, not an object per entry. */
import { createDeflateRaw, crc32, deflateRaw, deflateRawSync } from 'node:zlib';
import { pipeline } from 'node:stream/promises';
import { promisify } from 'node:util';
import type { Readable } from 'node:stream';
import type { OutFile } from './output';

const deflateRawAsync = promisify(deflateRaw);

/**
 * Entries up to this size are compressed on this thread: the thread pool's round trip
 * costs more than deflating a few KB (each was 150 µs a small entry here, against 30–70 µs
 * in one call), and 64 KB of text deflates in about a millisecond, short enough not to
 * hold up the app's main process. Larger ones (up to the 8 MiB result cap: 100 ms and
 * more) go to the pool.
 */
const DEFLATE_ON_THREAD_MAX = 64 * 1024;

/**
 * zlib's output buffer for an entry of `size` bytes: room for it stored as is. zlib's
 * default, 16 KB, made each small entry's few dozen deflated bytes a view of its own 16 KB,
 * and the ~1,000 of them waiting in OutFile's 64 KB of gathered writes held 16 MB.
 */
const outputRoom = (size: number): number => Math.min(16 * 1024, Math.max(64, size + 64));

const LOCAL_HEADER = 30;
const CENTRAL_RECORD = 46;
const UT_EXTRA = 9;
const ZIP64_EXTRA = 28;
const DATA_DESCRIPTOR = 16;
const ZIP64_DATA_DESCRIPTOR = 24;
const ZIP64_EOCD = 56;
const ZIP64_EOCD_LOCATOR = 20;
const EOCD = 22;

const VERSION_NEEDED_UTF8 = 20;
const VERSION_NEEDED_ZIP64 = 45;
// 3 = unix, 63 = spec version 6.3.
const VERSION_MADE_BY = (3 << 8) | 63;
const NAME_IS_UTF8 = 1 << 11;
const SIZES_FOLLOW_DATA = 1 << 3;
const DEFLATE = 8;
const FILE_MODE = 0o100664;
// A size or offset above this does not fit the 32-bit fields; yazl's threshold, kept so the records match.
const MAX_32 = 0xfffffffe;

/** The central directory's records, appended into large blocks: 100,000 entries are ~10 MB, not 100,000 objects. */
class CentralDirectory {
  // 64 KB: a few hundred records a block; far above Buffer's 4 KB pool cut-off, so no block shares a slab with a result.
  private static readonly BLOCK = 64 * 1024;
  private readonly full: Buffer[] = [];
  private block = Buffer.allocUnsafeSlow(CentralDirectory.BLOCK);
  private used = 0;
  bytes = 0;
  count = 0;

  /** Room for a record of `size` bytes: the buffer and the offset to write it at. */
  reserve(size: number): { buf: Buffer; at: number } {
    if (this.used + size > this.block.length) {
      this.full.push(this.block.subarray(0, this.used));
      this.block = Buffer.allocUnsafeSlow(Math.max(CentralDirectory.BLOCK, size));
      this.used = 0;
    }
    const at = this.used;
    this.used += size;
    this.bytes += size;
    this.count++;
    return { buf: this.block, at };
  }

  blocks(): Buffer[] {
    return [...this.full, this.block.subarray(0, this.used)];
  }
}

function writeUInt64LE(buf: Buffer, n: number, at: number): void {
  buf.writeUInt32LE(n % 0x100000000, at);
  buf.writeUInt32LE(Math.floor(n / 0x100000000), at + 4);
}

/** DOS date and time, in local time as the format has it (and yazl wrote), clamped to 1980–2107. */
function dosDateTime(d: Date): { date: number; time: number } {
  const min = new Date(1980, 0, 1);
  const max = new Date(2107, 11, 31, 23, 59, 58);
  const t = d < min ? min : d > max ? max : d;
  return {
    date: (t.getDate() & 0x1f) | (((t.getMonth() + 1) & 0xf) << 5) | (((t.getFullYear() - 1980) & 0x7f) << 9),
    time: Math.floor(t.getSeconds() / 2) | ((t.getMinutes() & 0x3f) << 5) | ((t.getHours() & 0x1f) << 11),
  };
}

interface EntryFacts {
  name: Buffer;
  flags: number;
  crc: number;
  compressed: number;
  size: number;
  offset: number;
}

const needsZip64 = (e: Pick<EntryFacts, 'compressed' | 'size' | 'offset'>): boolean => e.size > MAX_32 || e.compressed > MAX_32 || e.offset > MAX_32;

export class ZipWriter {
  private readonly out: OutFile;
  private readonly central = new CentralDirectory();
  private readonly date: number;
  private readonly time: number;
  private readonly unixTime: number;
  /** Bytes of the zip written so far: the next local header's offset. */
  private offset = 0;

  /** Every entry carries `mtime`. */
  constructor(out: OutFile, mtime: Date) {
    this.out = out;
    ({ date: this.date, time: this.time } = dosDateTime(mtime));
    this.unixTime = Math.min(0x7fffffff, Math.max(-0x80000000, Math.floor(mtime.getTime() / 1000)));
  }

  /** Adds a file whose bytes are all in hand: compressed in one go, its CRC and sizes in its header. */
  async addBuffer(path: string, data: Buffer): Promise<void> {
    const name = Buffer.from(path);
    const deflated = data.length <= DEFLATE_ON_THREAD_MAX ? deflateRawSync(data, { chunkSize: outputRoom(data.length) }) : await deflateRawAsync(data);
    const e: EntryFacts = { name, flags: NAME_IS_UTF8, crc: crc32(data), compressed: deflated.length, size: data.length, offset: this.offset };
    await this.emit(this.localHeader(e));
    await this.emit(deflated);
    this.record(e);
  }

  /**
   * Adds a file read from a stream (a listing written to disk during the export), deflated
   * as it is read: its CRC and sizes follow its data, in a data descriptor. An abort of
   * `signal` stops it between two chunks (a job's listing is MBs: most of a zip's last step).
   */
  async addStream(path: string, src: Readable, signal?: AbortSignal): Promise<void> {
    const e: EntryFacts = { name: Buffer.from(path), flags: NAME_IS_UTF8 | SIZES_FOLLOW_DATA, crc: 0, compressed: 0, size: 0, offset: this.offset };
    await this.emit(this.localHeader(e));
    await pipeline(
      src,
      async function* measure(chunks: AsyncIterable<Buffer>) {
        for await (const chunk of chunks) {
          e.crc = crc32(chunk, e.crc);
          e.size += chunk.length;
          yield chunk;
        }
      },
      createDeflateRaw(),
      async (chunks: AsyncIterable<Buffer>) => {
        for await (const chunk of chunks) {
          e.compressed += chunk.length;
          await this.emit(chunk);
        }
      },
      { signal },
    );
    const zip64 = needsZip64(e);
    const d = Buffer.alloc(zip64 ? ZIP64_DATA_DESCRIPTOR : DATA_DESCRIPTOR);
    d.writeUInt32LE(0x08074b50, 0);
    d.writeUInt32LE(e.crc, 4);
    if (zip64) {
      writeUInt64LE(d, e.compressed, 8);
      writeUInt64LE(d, e.size, 16);
    } else {
      d.writeUInt32LE(e.compressed, 8);
      d.writeUInt32LE(e.size, 12);
    }
    await this.emit(d);
    this.record(e);
  }

  /** Writes the central directory and the records that end the zip; the zip's size. Stops between two 64 KB blocks at an abort of `signal`. */
  async end(signal?: AbortSignal): Promise<number> {
    const start = this.offset;
    for (const b of this.central.blocks()) {
      signal?.throwIfAborted();
      await this.emit(b);
    }
    const count = this.central.count;
    const size = this.central.bytes;
    const zip64 = count >= 0xffff || size >= 0xffffffff || start >= 0xffffffff;
    if (zip64) {
      const r = Buffer.alloc(ZIP64_EOCD + ZIP64_EOCD_LOCATOR);
      r.writeUInt32LE(0x06064b50, 0);
      writeUInt64LE(r, ZIP64_EOCD - 12, 4);
      r.writeUInt16LE(VERSION_MADE_BY, 12);
      r.writeUInt16LE(VERSION_NEEDED_ZIP64, 14);
      writeUInt64LE(r, count, 24);
      writeUInt64LE(r, count, 32);
      writeUInt64LE(r, size, 40);
      writeUInt64LE(r, start, 48);
      r.writeUInt32LE(0x07064b50, ZIP64_EOCD);
      writeUInt64LE(r, this.offset, ZIP64_EOCD + 8);
      r.writeUInt32LE(1, ZIP64_EOCD + 16);
      await this.emit(r);
    }
    const r = Buffer.alloc(EOCD);
    r.writeUInt32LE(0x06054b50, 0);
    r.writeUInt16LE(Math.min(count, 0xffff), 8);
    r.writeUInt16LE(Math.min(count, 0xffff), 10);
    r.writeUInt32LE(Math.min(size, 0xffffffff), 12);
    r.writeUInt32LE(Math.min(start, 0xffffffff), 16);
    await this.emit(r);
    return this.offset;
  }

  private async emit(b: Buffer): Promise<void> {
    this.offset += b.length;
    await this.out.write(b);
  }

  private localHeader(e: EntryFacts): Buffer {
    const h = Buffer.alloc(LOCAL_HEADER + e.name.length);
    h.writeUInt32LE(0x04034b50, 0);
    h.writeUInt16LE(VERSION_NEEDED_UTF8, 4);
    h.writeUInt16LE(e.flags, 6);
    h.writeUInt16LE(DEFLATE, 8);
    h.writeUInt16LE(this.time, 10);
    h.writeUInt16LE(this.date, 12);
    // A streamed entry's CRC and sizes are not known yet: zeros here, the data descriptor has them.
    h.writeUInt32LE(e.crc, 14);
    h.writeUInt32LE(e.compressed, 18);
    h.writeUInt32LE(e.size, 22);
    h.writeUInt16LE(e.name.length, 26);
    e.name.copy(h, LOCAL_HEADER);
    return h;
  }

  /** The entry's central directory record, with the "UT" modification time and, past 4 GiB, the zip64 sizes and offset. */
  private record(e: EntryFacts): void {
    const zip64 = needsZip64(e);
    const extra = UT_EXTRA + (zip64 ? ZIP64_EXTRA : 0);
    const { buf, at } = this.central.reserve(CENTRAL_RECORD + e.name.length + extra);
    buf.fill(0, at, at + CENTRAL_RECORD);
    buf.writeUInt32LE(0x02014b50, at);
    buf.writeUInt16LE(VERSION_MADE_BY, at + 4);
    buf.writeUInt16LE(zip64 ? VERSION_NEEDED_ZIP64 : VERSION_NEEDED_UTF8, at + 6);
    buf.writeUInt16LE(e.flags, at + 8);
    buf.writeUInt16LE(DEFLATE, at + 10);
    buf.writeUInt16LE(this.time, at + 12);
    buf.writeUInt16LE(this.date, at + 14);
    buf.writeUInt32LE(e.crc, at + 16);
    buf.writeUInt32LE(zip64 ? 0xffffffff : e.compressed, at + 20);
    buf.writeUInt32LE(zip64 ? 0xffffffff : e.size, at + 24);
    buf.writeUInt16LE(e.name.length, at + 28);
    buf.writeUInt16LE(extra, at + 30);
    buf.writeUInt32LE((FILE_MODE << 16) >>> 0, at + 38);
    buf.writeUInt32LE(zip64 ? 0xffffffff : e.offset, at + 42);
    let p = at + CENTRAL_RECORD + e.name.copy(buf, at + CENTRAL_RECORD);
    buf.writeUInt16LE(0x5455, p);
    buf.writeUInt16LE(UT_EXTRA - 4, p + 2);
    // Modification time; the access-time flag set too, as Info-ZIP does, its field left out as in every central record.
    buf.writeUInt8(0b11, p + 4);
    buf.writeInt32LE(this.unixTime, p + 5);
    p += UT_EXTRA;
    if (zip64) {
      buf.writeUInt16LE(0x0001, p);
      buf.writeUInt16LE(ZIP64_EXTRA - 4, p + 2);
      writeUInt64LE(buf, e.size, p + 4);
      writeUInt64LE(buf, e.compressed, p + 12);
      writeUInt64LE(buf, e.offset, p + 20);
    }
  }
}
