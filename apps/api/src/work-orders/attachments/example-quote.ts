// The example attachment's bytes: a one-page PDF quote, built here so the demo team's example attachment is a
// real file a person can download and open (Swagger UI's pre-filled reads name it). Plain data, no imports.

const LINES = [
  'Drip Ltd - Quote Q-2041',
  'Replace the trap under the kitchen sink, 14 Elm Street',
  'Parts and labour: GBP 180.00',
];

/** A minimal PDF 1.4 document with one page of text (Helvetica), its cross-reference offsets computed. */
function quotePdf(lines: string[]): Buffer {
  const text = lines.map((line, i) => `BT /F1 14 Tf 56 ${760 - i * 24} Td (${line}) Tj ET`).join('\n');
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Contents 4 0 R /Resources << /Font << /F1 5 0 R >> >> >>',
    `<< /Length ${Buffer.byteLength(text)} >>\nstream\n${text}\nendstream`,
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((object, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${object}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  body += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

export const EXAMPLE_QUOTE_PDF = quotePdf(LINES);
