/**
 * A tiny PDF writer for tests: valid PDF 1.4 files with one text line per entry on each
 * page (Helvetica, WinAnsi), a correct xref table, an optional Title, or a Standard-security
 * /Encrypt dictionary whose empty user password does not match (so readers ask for one).
 * With `cjk`, the text is Chinese in a font that is not embedded and is addressed through
 * a predefined CMap (UniGB-UCS2-H, STSong-Light), as many CJK PDFs are made.
 */
import { constants, deflateRawSync, deflateSync } from 'node:zlib';

/** A run of text at a position (points from the bottom left of a US-letter page). */
export interface Placed {
  x: number;
  y: number;
  text: string;
  size?: number;
}

export interface PdfSpec {
  pages: string[][];
  /** Pages whose runs are placed one by one, in this order in the content stream (instead of `pages`). */
  placed?: Placed[][];
  title?: string;
  encrypted?: boolean;
  /** Pages with no text at all, as a scanned document has (an image-only page). */
  noText?: boolean;
  /** The text in a non-embedded Chinese font through the predefined CMap UniGB-UCS2-H (strings as UTF-16BE). */
  cjk?: boolean;
  /**
   * Pages whose content streams are these operators as written, with Helvetica as /F1, Times
   * as /F2 (instead of `pages`), and as /F3 Helvetica whose codes 1, 2 and 3 are the combining
   * marks U+20D7 (a vector's arrow), U+0345 (Greek ypogegrammeni) and U+0307 (dot above), which
   * a font draws on their own, with no width.
   */
  ops?: string[];
  /** Content streams compressed (FlateDecode), as most files have them. */
  deflate?: boolean;
  /** Per page, the addresses of its link annotations (URI actions), each over a strip of the page. */
  links?: string[][];
  /**
   * Per page, text boxes typed onto it (FreeText annotations, a viewer's "Add text"): drawn by
   * an appearance stream, or (`drawn: false`) only in their /Contents; `hidden` sets the Hidden flag.
   */
  textBoxes?: { x: number; y: number; text: string; drawn?: boolean; hidden?: boolean }[][];
}

const esc = (s: string): string => s.replace(/[\\()]/g, (c) => `\\${c}`);
const utf16 = (s: string): string => [...s].map((c) => (c.codePointAt(0) as number).toString(16).padStart(4, '0')).join('');

export function makePdf(spec: PdfSpec): Buffer {
  const objects: string[] = [];
  const add = (body: string): number => {
    objects.push(body);
    return objects.length;
  };
  const catalog = add(''); // filled below once the page tree's number is known
  const pagesId = add('');
  let font: number;
  if (spec.cjk) {
    const descriptor = add('<< /Type /FontDescriptor /FontName /STSong-Light /Flags 6 /FontBBox [-25 -254 1000 880] /ItalicAngle 0 /Ascent 880 /Descent -120 /CapHeight 880 /StemV 93 >>');
    const cid = add(`<< /Type /Font /Subtype /CIDFontType0 /BaseFont /STSong-Light /CIDSystemInfo << /Registry (Adobe) /Ordering (GB1) /Supplement 2 >> /FontDescriptor ${descriptor} 0 R /DW 1000 >>`);
    font = add(`<< /Type /Font /Subtype /Type0 /BaseFont /STSong-Light /Encoding /UniGB-UCS2-H /DescendantFonts [${cid} 0 R] >>`);
  } else font = add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>');
  const second = spec.ops ? add('<< /Type /Font /Subtype /Type1 /BaseFont /Times-Roman /Encoding /WinAnsiEncoding >>') : 0;
  const marks = spec.ops ? add('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding << /Type /Encoding /BaseEncoding /WinAnsiEncoding /Differences [1 /uni20D7 /uni0345 /uni0307] >> >>') : 0;
  const str = (s: string): string => (spec.cjk ? `<${utf16(s)}>` : `(${esc(s)})`);
  const kids: number[] = [];
  const bodies = spec.ops
    ? spec.ops
    : spec.placed
    ? spec.placed.map((runs) => runs.map((r) => `BT /F1 ${r.size ?? 10} Tf 1 0 0 1 ${r.x} ${r.y} Tm ${str(r.text)} Tj ET`).join('\n'))
    : spec.pages.map((lines) =>
        spec.noText ? '0.9 g 72 72 400 600 re f' : ['BT', '/F1 12 Tf', '16 TL', '72 740 Td', ...lines.map((l, i) => `${i ? 'T* ' : ''}${str(l)} Tj`), 'ET'].join('\n'),
      );
  for (const ops of bodies) {
    const data = spec.deflate ? deflateSync(Buffer.from(ops, 'latin1')).toString('latin1') : ops;
    const content = add(`<< /Length ${Buffer.byteLength(data, 'latin1')}${spec.deflate ? ' /Filter /FlateDecode' : ''} >>\nstream\n${data}\nendstream`);
    const annots = (spec.links?.[kids.length] ?? []).map((uri, i) => add(`<< /Type /Annot /Subtype /Link /Rect [72 ${700 - 20 * i} 300 ${712 - 20 * i}] /Border [0 0 0] /A << /S /URI /URI (${esc(uri)}) >> >>`));
    for (const box of spec.textBoxes?.[kids.length] ?? []) {
      const rect = `[${box.x} ${box.y} ${box.x + 300} ${box.y + 20}]`;
      const drawing = `BT /F1 12 Tf 2 5 Td (${esc(box.text)}) Tj ET`;
      const ap = box.drawn === false ? 0 : add(`<< /Type /XObject /Subtype /Form /BBox [0 0 300 20] /Resources << /Font << /F1 ${font} 0 R >> >> /Length ${drawing.length} >>\nstream\n${drawing}\nendstream`);
      annots.push(add(`<< /Type /Annot /Subtype /FreeText /Rect ${rect} /Contents (${esc(box.text)}) /DA (/F1 12 Tf 0 g) /F ${box.hidden ? 2 : 4}${ap ? ` /AP << /N ${ap} 0 R >>` : ''} >>`));
    }
    const annotsEntry = annots.length ? ` /Annots [${annots.map((a) => `${a} 0 R`).join(' ')}]` : '';
    kids.push(add(`<< /Type /Page /Parent ${pagesId} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 ${font} 0 R${second ? ` /F2 ${second} 0 R /F3 ${marks} 0 R` : ''} >> >> /Contents ${content} 0 R${annotsEntry} >>`));
  }
  objects[catalog - 1] = `<< /Type /Catalog /Pages ${pagesId} 0 R >>`;
  objects[pagesId - 1] = `<< /Type /Pages /Kids [${kids.map((k) => `${k} 0 R`).join(' ')}] /Count ${kids.length} >>`;
  const info = spec.title ? add(`<< /Title (${esc(spec.title)}) /Producer (sift-test) >>`) : 0;
  const encrypt = spec.encrypted ? add(`<< /Filter /Standard /V 1 /R 2 /O <${'ab'.repeat(32)}> /U <${'cd'.repeat(32)}> /P -4 >>`) : 0;
  const id = `<${'0123456789abcdef'.repeat(2)}>`;
  return pdfFile('%PDF-1.4\n%\xe2\xe3\xcf\xd3\n', objects, `/Root ${catalog} 0 R${info ? ` /Info ${info} 0 R` : ''}${encrypt ? ` /Encrypt ${encrypt} 0 R /ID [${id} ${id}]` : ''}`);
}

/** The file of these objects (numbered from 1, latin1 strings), with its xref table and a trailer of these entries. */
function pdfFile(header: string, objects: string[], trailer: string): Buffer {
  let out = header;
  const offsets: number[] = [];
  objects.forEach((body, i) => {
    offsets.push(Buffer.byteLength(out, 'latin1'));
    out += `${i + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = Buffer.byteLength(out, 'latin1');
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  out += `trailer\n<< /Size ${objects.length + 1} ${trailer} >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(out, 'latin1');
}

/** N pages whose text names the page: "Page 3 of 7" and a line of its own words. */
export function numberedPdf(n: number, title = 'Numbered'): Buffer {
  return makePdf({ title, pages: Array.from({ length: n }, (_, i) => [`Page ${i + 1} of ${n}`, `The word for page ${i + 1} is item${i + 1}.`]) });
}

/**
 * A one-page PDF whose content stream says "Bomb start" and then inflates to `mib` MiB of
 * blanks, from a few hundred KB (a decompression bomb). The zlib stream is a 1 MiB block of
 * blanks repeated, with a correct Adler-32, so it is made in milliseconds, not by deflating
 * the whole.
 */
export function bombPdf(mib: number): Buffer {
  const text = Buffer.from('BT /F1 12 Tf 72 700 Td (Bomb start) Tj ET\n', 'latin1');
  const block = deflateRawSync(Buffer.alloc(1 << 20, 0x20), { finishFlush: constants.Z_SYNC_FLUSH });
  const n = BigInt(text.length + mib * (1 << 20));
  // Adler-32 of the text and the blanks: a = 1 + sum of bytes, b = sum of a after each byte.
  let a = 1n;
  let b = 0n;
  for (const c of text) {
    a += BigInt(c);
    b += a;
  }
  const blanks = n - BigInt(text.length);
  b += blanks * a + 32n * ((blanks * (blanks + 1n)) / 2n);
  a += 32n * blanks;
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(Number(((b % 65521n) << 16n) | (a % 65521n)));
  const stream = Buffer.concat([
    Buffer.from([0x78, 0x9c]),
    deflateRawSync(text, { finishFlush: constants.Z_SYNC_FLUSH }),
    ...Array.from({ length: mib }, () => block),
    deflateRawSync(Buffer.alloc(0)),
    adler,
  ]);
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    `<< /Length ${stream.length} /Filter /FlateDecode >>\nstream\n${stream.toString('latin1')}\nendstream`,
  ];
  return pdfFile('%PDF-1.4\n', objects, '/Root 1 0 R');
}

/**
 * LZW codes (PDF's LZWDecode, early change 1) for runs of blanks: after each clear code a blank,
 * then each new code in turn, every one a run one longer than the one before, until the
 * dictionary is full. One round is 5.5 KB of codes that decode to 7.4 MB.
 */
function lzwBlanks(rounds: number): Buffer {
  const out: number[] = [];
  let acc = 0;
  let bits = 0;
  const emit = (code: number, width: number): void => {
    acc = (acc << width) | code;
    bits += width;
    while (bits >= 8) {
      bits -= 8;
      out.push((acc >> bits) & 0xff);
    }
    acc &= (1 << bits) - 1;
  };
  let width = 9;
  emit(256, width);
  for (let r = 0; r < rounds; r++) {
    width = 9;
    emit(0x20, width);
    for (let next = 258; next < 4094; ) {
      emit(next, width);
      next++;
      // The decoder widens its codes when the next free code plus one is a power of two.
      if (((next + 1) & next) === 0 && width < 12) width++;
    }
    emit(256, width);
  }
  emit(257, 9);
  if (bits > 0) out.push((acc << (8 - bits)) & 0xff);
  return Buffer.from(out);
}

/**
 * A one-page PDF whose text is "Bomb start", and whose second content stream is LZW under
 * deflate decoding to `rounds` × 7.4 MB of blanks: 300 rounds (2.2 GB) are a file of 20 KB.
 */
export function lzwBombPdf(rounds: number): Buffer {
  const text = 'BT /F1 12 Tf 72 700 Td (Bomb start) Tj ET\n';
  const stream = deflateSync(lzwBlanks(rounds));
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica /Encoding /WinAnsiEncoding >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 3 0 R >> >> /Contents [5 0 R 6 0 R] >>',
    `<< /Length ${text.length} >>\nstream\n${text}\nendstream`,
    `<< /Length ${stream.length} /Filter [/FlateDecode /LZWDecode] >>\nstream\n${stream.toString('latin1')}\nendstream`,
  ];
  return pdfFile('%PDF-1.4\n', objects, '/Root 1 0 R');
}


/** The lines of twoColumnPaper's two columns of text. */
export const TWO_COLUMNS = {
  left: ['Tides rise twice a day on most coasts of the', 'world, pulled by the moon and by the sun', 'as the earth turns beneath the two of them;', 'the height of each tide depends on where', 'the moon stands and on the shape of the', 'coast, the depth of the sea and the wind.'],
  right: ['Harbour masters print tables of the times', 'of high and low water for every day of the', 'year, worked out from the gauges read by', 'hand for two centuries and by machines', 'since; sailors read them before they go', 'out, and fishermen before they set nets.'],
};

/**
 * A page of two columns of text (TWO_COLUMNS) with a table of seven narrow columns under
 * them, as a paper's results table: the table's columns are read one after the other too,
 * but the page has two columns.
 */
export function twoColumnPaper(): Buffer {
  const runs: Placed[] = [];
  TWO_COLUMNS.left.forEach((l, i) => runs.push({ x: 72, y: 700 - i * 12, text: l }, { x: 320, y: 700 - i * 12, text: TWO_COLUMNS.right[i] as string }));
  for (let row = 0; row < 5; row++) for (let col = 0; col < 7; col++) runs.push({ x: 72 + col * 66, y: 560 - row * 12, text: `${row + 1}${col}.25` });
  return makePdf({ pages: [], placed: [runs] });
}
