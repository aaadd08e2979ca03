/**
 * `npm run bench -- fidelity`: how close Sift's extraction is to a reference, and how fast.
 * HTML: article text against the article extraction benchmark's ground truth (F1, precision,
 * recall with its metric) and ms/page (bench/_fidelity-html.ts). PDF, when its half is present
 * (bench/_fidelity-pdf.ts): text against poppler's pdftotext.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { runHtmlFidelity } from './_fidelity-html';

export default async function fidelity(): Promise<void> {
  await runHtmlFidelity();
  const pdf = path.join(__dirname, '_fidelity-pdf.ts');
  if (existsSync(pdf)) {
    const mod = (await import(pdf)) as { runPdfFidelity: () => Promise<void> };
    await mod.runPdfFidelity();
  }
}
