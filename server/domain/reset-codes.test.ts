import { describe, expect, it } from 'vitest';
import {
  generateResetCode,
  INVITE_CODE_TTL_MS,
  normalizeResetCode,
  RESET_CODE_ALPHABET,
  RESET_CODE_LENGTH,
  RESET_CODE_TTL_MS,
} from './reset-codes';

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
    expect(normalizeResetCode('ab--cd\t23\n45')).toBe('ABCD2345');
    expect(normalizeResetCode('ABCD2345')).toBe('ABCD2345');
  });

  it("live 15 minutes (docs/product.md#auth); an invitation's code 72 hours (decision 055)", () => {
    expect(RESET_CODE_LENGTH).toBe(8);
    expect(RESET_CODE_TTL_MS).toBe(15 * 60 * 1000);
    expect(INVITE_CODE_TTL_MS).toBe(72 * 60 * 60 * 1000);
  });
});
