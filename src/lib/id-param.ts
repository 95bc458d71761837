import { notFound } from '@tanstack/react-router';

/** A route's numeric id parameter: a positive safe integer, else the not-found route. */
export function parseIdParam(value: string): number {
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 1) throw notFound();
  return id;
}

/**
 * A route's `params` for one numeric id (`params: idParams('partnerId')`): parsed as `parseIdParam`
 * does, written back as its digits.
 */
export function idParams<Name extends string>(name: Name) {
  return {
    parse: (params: Record<Name, string>) => ({ [name]: parseIdParam(params[name]) }) as Record<Name, number>,
    stringify: (params: Record<Name, number>) => ({ [name]: String(params[name]) }) as Record<Name, string>,
  };
}
