import { describe, expect, it } from 'vitest';
import { countCsvRecords, newCsvCounter } from './csv-records';

describe('countCsvRecords', () => {
  it('counts line breaks outside quotes, across chunk boundaries', () => {
    const csv = 'ID,Name\r\n1,"Smith, ""Jr"""\r\n2,"Line one\nLine two"\r\n3,plain\r\n';
    // Every split point gives the same count: 4 records (header + 3 rows).
    for (let cut = 0; cut <= csv.length; cut++) {
      let c = countCsvRecords(newCsvCounter(), csv.slice(0, cut));
      c = countCsvRecords(c, csv.slice(cut));
      expect(c.records, `cut at ${cut}`).toBe(4);
      expect(c.inQuotes).toBe(false);
    }
  });
});
