import { describe, expect, it } from 'vitest';
import { HEAD_BYTES, parseCsvText, readCsvHead } from './csv-head';

describe('the head of a CSV file (the import preview)', () => {
  it('reads quoted commas, doubled quotes, line breaks in quotes, a BOM and Windows line endings', () => {
    expect(parseCsvText('\uFEFFa,b\r\n"x, y","say ""hi"""\r\n"two\r\nlines",z\r\n\r\n')).toEqual([
      ['a', 'b'],
      ['x, y', 'say "hi"'],
      ['two\r\nlines', 'z'],
    ]);
  });

  it('reads only the head of a large file and drops its cut last row', async () => {
    const row = 'EXT-1,Ade,Ọkafọ̀,ade@mail.test\n';
    const body = row.repeat(Math.ceil((HEAD_BYTES * 3) / row.length));
    const file = new Blob([`externalId,firstName,lastName,email\n${body}`]);
    expect((await readCsvHead(file, 5)).rows).toHaveLength(5);
    const head = await readCsvHead(file, Number.MAX_SAFE_INTEGER);
    expect(head.header).toEqual(['externalId', 'firstName', 'lastName', 'email']);
    // Fewer rows than the file has (only its head is read), and none of them cut.
    expect(head.rows.length).toBeGreaterThan(100);
    expect(head.rows.length).toBeLessThan(body.length / row.length / 2);
    expect(head.rows.every((r) => r.join(',') === row.trim())).toBe(true);
  });

  it('a file shorter than the head keeps its last row', async () => {
    const head = await readCsvHead(new Blob(['externalId,email\nA-1,a@mail.test']));
    expect(head).toEqual({ header: ['externalId', 'email'], rows: [['A-1', 'a@mail.test']] });
  });
});
