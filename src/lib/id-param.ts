import { notFound } from '@tanstack/react-router';

/** A route's numeric id parameter: a positive safe integer, else the not-found route. */
export function parseIdParam(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound();
  return id;
}
