/**
 * The walk's command-line edges (issue 30 item 6): `FLOWS_ONLY` names machines the way the report
 * prints them (`guidedRedemption`) or by their file (`guided-redemption`), case aside, and a name
 * that matches no machine stops the run with the names it knows; a server or mailbox that does not
 * answer is named with its URL and what to check, never a bare "fetch failed".
 */

export interface Walkable {
  /** The machine file's stem under src/machines (`guided-redemption`). */
  stem: string;
  /** The machine's name as the report prints it (`guidedRedemption`). */
  name: string;
}

const fold = (s: string) => s.toLowerCase().replace(/[-_\s]/g, '');

/** The machines `only` asks for (all when empty); throws on a name that matches none. */
export function selectWalks<T extends Walkable>(only: readonly string[], available: readonly T[]): T[] {
  if (only.length === 0) return [...available];
  const unknown = only.filter(
    (n) => !available.some((w) => fold(w.name) === fold(n) || fold(w.stem) === fold(n)),
  );
  if (unknown.length)
    throw new Error(
      `FLOWS_ONLY names ${unknown.map((n) => `"${n}"`).join(', ')}, which match no machine; ` +
        `the machines are: ${available.map((w) => w.name).join(', ')}`,
    );
  const wanted = new Set(only.map(fold));
  return available.filter((w) => wanted.has(fold(w.name)) || wanted.has(fold(w.stem)));
}

/** The parsed FLOWS_ONLY list. */
export const parseOnly = (value: string | undefined) =>
  (value ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

/**
 * Runs `attempt` (the first call to a server or mailbox); a network failure becomes an error that
 * names `what`, its URL, the cause, and what to check.
 */
export async function reach<T>(
  what: string,
  url: string,
  hint: string,
  attempt: () => Promise<T>,
): Promise<T> {
  try {
    return await attempt();
  } catch (error) {
    const e = error as Error & { cause?: { code?: string; message?: string } };
    // fetch's own failures are TypeErrors with the socket's error as the cause; an HTTP answer is not.
    if (!(e instanceof TypeError)) throw error;
    const cause = e.cause?.code ?? e.cause?.message ?? e.message;
    throw new Error(`The ${what} at ${url} did not answer (${cause}). ${hint}`);
  }
}
