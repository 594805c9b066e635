/**
 * RFC 4180 text as rows of cells, written here rather than taken from the library the app writes it with, so the
 * tests read exports the way any other reader would: quoted cells may hold commas, CR/LF and doubled quotes; a CR
 * or LF anywhere else than a record's CRLF is an error.
 */
export function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (char === '"') quoted = false;
      else cell += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      row.push(cell);
      cell = '';
    } else if (char === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else if (char === '\r' || char === '\n') {
      // RFC 4180: a line break inside a cell only in a quoted one; any other reader would start a new record here.
      throw new Error(`a bare ${char === '\r' ? 'CR' : 'LF'} outside a quoted cell at ${i}: ${JSON.stringify(cell)}`);
    } else cell += char;
  }
  if (cell !== '' || row.length > 0)
    throw new Error(`the CSV does not end with CRLF: ${JSON.stringify(text.slice(-40))}`);
  return rows;
}

/** The rows after the header, each as an object by the header's names. */
export function csvRecords(text: string): { header: string[]; records: Array<Record<string, string>> } {
  const [header, ...rows] = parseCsv(text);
  return { header, records: rows.map((row) => Object.fromEntries(header.map((name, i) => [name, row[i]]))) };
}
