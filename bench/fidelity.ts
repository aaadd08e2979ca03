/**
 * `npm run bench -- fidelity`: how close Sift's extraction is to a reference, and how fast.
 * HTML: article text against the article extraction benchmark's ground truth (F1, precision,
 * recall with its metric) and ms/page (bench/_fidelity-html.ts). PDF: text against poppler's
 * pdftotext, 4-token shingle F1, and ms/page of both (bench/_fidelity-pdf.ts).
 * FIDELITY_ONLY=html or FIDELITY_ONLY=pdf runs one half.
 */
import { runHtmlFidelity } from './_fidelity-html';
import { runPdfFidelity } from './_fidelity-pdf';

export default async function fidelity(): Promise<void> {
  const only = process.env.FIDELITY_ONLY;
  if (only && only !== 'html' && only !== 'pdf') throw new Error(`FIDELITY_ONLY is "${only}": use html or pdf, or leave it unset for both`);
  if (only !== 'pdf') await runHtmlFidelity();
  if (only !== 'html') await runPdfFidelity();
}
