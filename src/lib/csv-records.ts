/**
 * Counts CSV records as the text arrives, chunk by chunk, for an export's progress: a line break
 * ends a record only outside quotes (a quoted cell may hold line breaks; `""` inside quotes toggles
 * twice and changes nothing). The header row counts as a record: rows = records - 1.
 */
export type CsvCounter = { records: number; inQuotes: boolean };

export const newCsvCounter = (): CsvCounter => ({ records: 0, inQuotes: false });

export function countCsvRecords(counter: CsvCounter, text: string): CsvCounter {
  let { records, inQuotes } = counter;
  for (let i = 0; i < text.length; i++) {
    const ch = text.charCodeAt(i);
    if (ch === 34 /* " */) inQuotes = !inQuotes;
    else if (ch === 10 /* \n */ && !inQuotes) records++;
  }
  return { records, inQuotes };
}
