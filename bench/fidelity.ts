/**
 * `npm run bench -- fidelity`: how close Sift's extraction is to a reference, and how fast.
 * HTML: article text against the article extraction benchmark's ground truth (F1, precision,
 * recall with its metric) and ms/page (bench/_fidelity-html.ts). PDF: text against poppler's
 * pdftotext, 4-token shingle F1, and ms/page of both (bench/_fidelity-pdf.ts).
 */
import { runHtmlFidelity } from './_fidelity-html';
import { runPdfFidelity } from './_fidelity-pdf';

export default async function fidelity(): Promise<void> {
  await runHtmlFidelity();
  await runPdfFidelity();
}
