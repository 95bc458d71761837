/**
 * The fields an edit changes (customers, partners, staff): each one sent (not `undefined`) and
 * different from the row's value, in the order of `labels`, with the words the event log names it
 * by ("first name", "phone"). An empty text that clears a field is passed as `null` by the caller.
 */
export function changedFields<B extends Record<string, unknown>>(
  before: { [K in keyof B]: unknown },
  sent: B,
  labels: { [K in keyof B]: string },
): { changes: { [K in keyof B]?: Exclude<B[K], undefined> }; changed: string[] } {
  const changes: { [K in keyof B]?: Exclude<B[K], undefined> } = {};
  const changed: string[] = [];
  for (const key of Object.keys(labels) as (keyof B)[]) {
    const value = sent[key];
    if (value !== undefined && value !== before[key]) {
      changes[key] = value as Exclude<B[typeof key], undefined>;
      changed.push(labels[key]);
    }
  }
  return { changes, changed };
}
