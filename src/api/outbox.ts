import { concurrencyMessages, VERSION_HEADER, versionTag } from '../../contract/concurrency';
import type { OutboxEntity } from '../db/app-db';
import { apiCall, type CallData } from './call';
import { ApiError, type Result } from './client';
import { fetchCustomer } from './customers';
import { fetchExtendedService } from './extended-services';
import { fetchPartner } from './partners';
import { fetchProfile } from './profile';

/**
 * The edits that may be sent late (profile, partner, customer, extended service), sent directly or
 * from the outbox: each with its Idempotency-Key (a resend answers the first result) and, for an
 * edit, the record's version as read in If-Match (a 409 when it changed meanwhile).
 */

export interface EditCall {
  method: 'POST' | 'PATCH';
  path: string;
  body: unknown;
  entity: OutboxEntity;
  entityId: number | null;
  baseVersion: string | null;
  idempotencyKey: string;
}

/** The server's 409 for a changed record, with the record as the server has it now. */
export class ConflictError extends ApiError {
  constructor(readonly current: unknown) {
    super(409, concurrencyMessages.recordChanged);
  }
}

export const isConflict = (error: unknown): error is ConflictError => error instanceof ConflictError;

/** The record as the server has it now (for the 409 dialog and 'use theirs'). */
export function fetchCurrent(entity: OutboxEntity, entityId: number | null): Promise<unknown> {
  if (entity === 'profile') return fetchProfile();
  if (entityId === null) return Promise.resolve(null);
  if (entity === 'partner') return fetchPartner(entityId);
  if (entity === 'customer') return fetchCustomer(entityId);
  return fetchExtendedService(entityId);
}

/** The endpoints an edit that may wait goes to (contract/api.ts): their answers are the record. */
const EDIT_ROUTES = [
  'PATCH /user/profile',
  'PATCH /admin/partners/update-record',
  'PATCH /admin/user/customers',
  'POST /admin/partners/extended-services',
  'PATCH /admin/partners/extended-services',
] as const;
type EditRoute = (typeof EDIT_ROUTES)[number];

/** What an edit's answer holds: the record as saved (a profile, a partner, a customer, a service). */
export type EditAnswer = CallData<EditRoute>;

const editRoute = (call: EditCall): EditRoute => {
  const key = `${call.method} ${call.path}`;
  const route = EDIT_ROUTES.find((r) => r === key);
  if (!route) throw new Error(`${key} is not an edit that may be sent late`);
  return route;
};

export async function sendEdit(call: EditCall): Promise<Result<EditAnswer>> {
  const headers: Record<string, string> = { 'Idempotency-Key': call.idempotencyKey };
  if (call.baseVersion) headers[VERSION_HEADER] = versionTag(call.baseVersion);
  try {
    // The body was checked by the screen's form when it was queued (it may have waited in IndexedDB).
    return await apiCall(editRoute(call), { body: call.body, headers } as never);
  } catch (error) {
    if (
      error instanceof ApiError &&
      error.status === 409 &&
      error.message === concurrencyMessages.recordChanged
    ) {
      throw new ConflictError(await fetchCurrent(call.entity, call.entityId).catch(() => null));
    }
    throw error;
  }
}

/** Where the edits that may be sent late go (docs/product.md#calls). */
export const EDIT_PATHS = {
  profile: '/user/profile',
  partner: '/admin/partners/update-record',
  customer: '/admin/user/customers',
  extendedService: '/admin/partners/extended-services',
} as const;
