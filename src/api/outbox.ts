import { concurrencyMessages, VERSION_HEADER, versionTag } from '../../contract/concurrency';
import { z } from '../../contract/zod';
import type { OutboxEntity } from '../db/app-db';
import { ApiError, api, type Result } from './client';
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

export async function sendEdit(call: EditCall): Promise<Result<unknown>> {
  const headers: Record<string, string> = { 'Idempotency-Key': call.idempotencyKey };
  if (call.baseVersion) headers[VERSION_HEADER] = versionTag(call.baseVersion);
  try {
    return await api().send(call.method, call.path, z.unknown(), { body: call.body, headers });
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

/** Where the edits that may be sent late go (SPEC section 7). */
export const EDIT_PATHS = {
  profile: '/user/profile',
  partner: '/admin/partners/update-record',
  customer: '/admin/user/customers',
  extendedService: '/admin/partners/extended-services',
} as const;
