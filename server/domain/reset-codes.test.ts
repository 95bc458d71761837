import { describe, expect, it } from 'vitest';
import { generateResetCode, normalizeResetCode, RESET_CODE_ALPHABET } from './reset-codes';

describe('reset codes', () => {
  it('are 8 characters from an unambiguous alphabet of 32', () => {
    expect(RESET_CODE_ALPHABET).toHaveLength(32);
    expect(new Set(RESET_CODE_ALPHABET).size).toBe(32);
    expect(RESET_CODE_ALPHABET).not.toMatch(/[01IO]/);
    for (let i = 0; i < 200; i++) expect(generateResetCode()).toMatch(/^[A-HJ-NP-Z2-9]{8}$/);
  });

  it('map bytes without bias and differ between calls', () => {
    expect(generateResetCode(new Uint8Array([0, 31, 32, 255, 1, 2, 3, 4]))).toBe('A9A9BCDE');
    expect(new Set(Array.from({ length: 100 }, () => generateResetCode())).size).toBe(100);
  });

  it('normalise what people type', () => {
    expect(normalizeResetCode(' abcd-2345 ')).toBe('ABCD2345');
    expect(normalizeResetCode('ab cd 23 45')).toBe('ABCD2345');
  });
});
