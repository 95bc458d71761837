/**
 * The first rows of a CSV file for a preview (the customer import): only the head of the file is
 * read (`HEAD_BYTES`), so a 50 MB file costs the tab no more than a small one. Quoted cells may
 * hold commas, doubled quotes and line breaks; a BOM and Windows line endings are fine. When the
 * file is longer than its head, the last (maybe cut) record is dropped.
 */
export const HEAD_BYTES = 64 * 1024;

export type CsvHead = { header: string[]; rows: string[][] };

/** Parses CSV text into records (cells as written, quotes removed). */
export function parseCsvText(text: string): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let cell = '';
  let quoted = false;
  const src = text.replace(/^\uFEFF/, '');
  for (let i = 0; i < src.length; i++) {
    const ch = src[i];
    if (quoted) {
      if (ch === '"' && src[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else cell += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      record.push(cell);
      cell = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && src[i + 1] === '\n') i++;
      record.push(cell);
      records.push(record);
      record = [];
      cell = '';
    } else cell += ch;
  }
  if (cell !== '' || record.length) {
    record.push(cell);
    records.push(record);
  }
  return records.filter((r) => r.some((c) => c.trim() !== ''));
}

/** The header and up to `limit` rows from the start of `file`. */
export async function readCsvHead(file: Blob, limit = 5): Promise<CsvHead> {
  const text = await file.slice(0, HEAD_BYTES).text();
  const records = parseCsvText(text);
  if (file.size > HEAD_BYTES && records.length > 1) records.pop();
  const [header = [], ...rows] = records;
  return { header: header.map((h) => h.trim()), rows: rows.slice(0, limit) };
}
