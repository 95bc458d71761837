import { describe, expect, it } from 'vitest';
import { isDatabaseUnavailable, sqlState } from './errors';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isDatabaseUnavailable', () => {
  it('knows a database that cannot be reached, through drizzle causes and aggregate errors', () => {
    expect(isDatabaseUnavailable(withCode('ECONNREFUSED'))).toBe(true);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: withCode('CONNECTION_CLOSED') }))).toBe(
      true,
    );
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: withCode('57P01') }))).toBe(true);
    expect(isDatabaseUnavailable(withCode('08006'))).toBe(true);
    expect(isDatabaseUnavailable(new AggregateError([withCode('ECONNREFUSED')]))).toBe(true);
  });

  it("knows node-postgres's uncoded connection errors, and only those", () => {
    for (const message of [
      'Connection terminated unexpectedly',
      'Client has encountered a connection error and is not queryable',
      'timeout exceeded when trying to connect',
    ]) {
      expect(isDatabaseUnavailable(new Error('Failed query', { cause: new Error(message) }))).toBe(true);
    }
    // The same words with a SQLSTATE are the database's own error, not a lost connection.
    expect(isDatabaseUnavailable(withCode('42601', 'Connection terminated near'))).toBe(false);
  });

  it('leaves query errors alone (they stay 4xx mappings or a logged 500)', () => {
    expect(isDatabaseUnavailable(withCode('23505'))).toBe(false);
    expect(isDatabaseUnavailable(new Error('Failed query', { cause: withCode('42P01') }))).toBe(false);
    expect(isDatabaseUnavailable(new Error('boom'))).toBe(false);
    expect(isDatabaseUnavailable(null)).toBe(false);
    expect(sqlState(new Error('Failed query', { cause: withCode('23505') }))).toBe('23505');
  });
});
