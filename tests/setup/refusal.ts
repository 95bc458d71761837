/** What a synchronous call refuses with (an ApiError's status and message), or null when it goes through. */
export const refusal = (call: () => unknown): { status: number; message: string } | null => {
  try {
    call();
    return null;
  } catch (err) {
    const e = err as { status: number; message: string };
    return { status: e.status, message: e.message };
  }
};
