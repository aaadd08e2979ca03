/**
 * `npm run bench -- fidelity`: text fidelity against reference extractors. This branch has
 * the PDF half only (bench/_fidelity-pdf.ts); the HTML half joins it here.
 */
import { runPdfFidelity } from './_fidelity-pdf';

export default async function (): Promise<void> {
  await runPdfFidelity();
}
