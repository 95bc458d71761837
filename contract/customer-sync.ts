import { customerSchema } from './customers';
import { idField } from './ids';
import type { PermissionName } from './permissions';
import { emailField, optionalPhoneField } from './validation';
import { z } from './zod';

/**
 * Customers come from the provider's subscriber system (issue 27, docs/decisions/051): one by one
 * by external id (PUT, a club key or an admin), in bulk (a CSV or NDJSON import job), or by hand
 * (Add customer). The same record rules hold for all three.
 */

// ---------------------------------------------------------------------------------------------
// Club integration keys

/* A club key is `rcc_<prefix>_<secret>` (a partner key is `rck_...`; server/domain/api-keys.ts). */

/** What a club key may hold. A partner key never holds these; a club key holds nothing else. */
export const CLUB_KEY_SCOPES = ['customers.read', 'customers.write'] as const;
export type ClubKeyScope = (typeof CLUB_KEY_SCOPES)[number];

/**
 * The catalogue permissions a club key's scope stands for (the guards check permissions): a club
 * key reaches only the routes its descriptor marks `clubKey` (server/http/access.ts `clubKeyMayCall`).
 */
export const CLUB_KEY_SCOPE_PERMISSIONS: Record<ClubKeyScope, readonly PermissionName[]> = {
  'customers.read': ['clients.view'],
  'customers.write': ['customers.create', 'customers.import'],
};

export const MAX_CLUB_KEYS = 25;

export const clubKeyMessages = {
  nameRequired: 'Enter a name for the key',
  scopesRequired: 'Choose at least one scope',
  tooMany: `The club can hold at most ${MAX_CLUB_KEYS} integration keys; revoke one first`,
  notFound: 'API key not found',
  created: 'API key created. Copy it now: it is not shown again.',
  revoked: 'API key revoked',
} as const;

export const createClubKeyBodySchema = z.object({
  name: z
    .string({ error: clubKeyMessages.nameRequired })
    .check(
      z.trim(),
      z.minLength(1, { error: clubKeyMessages.nameRequired }),
      z.maxLength(100, { error: 'name must be at most 100 characters' }),
    ),
  scopes: z
    .array(z.enum(CLUB_KEY_SCOPES, { error: `scopes must be among ${CLUB_KEY_SCOPES.join(', ')}` }), {
      error: clubKeyMessages.scopesRequired,
    })
    .check(
      z.minLength(1, { error: clubKeyMessages.scopesRequired }),
      z.maxLength(CLUB_KEY_SCOPES.length * 2, { error: 'Too many scopes' }),
    ),
});

export type CreateClubKeyBody = z.output<typeof createClubKeyBodySchema>;

export const clubKeyParamSchema = z.object({ id: idField('id') });

export const clubKeySchema = z.object({
  id: z.int(),
  name: z.string(),
  /** The public part (`rcc_<prefix>`), to tell keys apart. */
  prefix: z.string(),
  scopes: z.array(z.enum(CLUB_KEY_SCOPES)),
  createdAt: z.string(),
  lastUsedAt: z.nullable(z.string()),
  /** When a Super Admin revoked it (null: active). The list keeps revoked keys, after the active ones. */
  revokedAt: z.nullable(z.string()),
});
export type ClubKey = z.infer<typeof clubKeySchema>;

export const createdClubKeySchema = z.extend(clubKeySchema, { key: z.string() });
export type CreatedClubKey = z.infer<typeof createdClubKeySchema>;

// ---------------------------------------------------------------------------------------------
// One customer

export const customerSyncMessages = {
  externalIdInvalid:
    'externalId must be 1 to 64 characters: letters, digits and . _ - / : (the subscriber or account number as your system keeps it)',
  firstNameRequired: 'First name is required',
  lastNameRequired: 'Last name is required',
  statusInvalid: "status must be 'ACTIVE' or 'BLOCKED'",
  emailTaken: 'This email belongs to another customer (another external id); change one of them first',
  externalIdTaken: 'A customer with this external id already exists',
  created: 'Customer created',
  updated: 'Customer updated',
  unchanged: 'Nothing changed',
  added: 'Customer added',
  erased:
    'This external id belonged to a customer whose personal data was erased; an admin restores the external id (Clients: Restore) before a new record can be imported under it',
  deleted:
    'This customer was deleted in the console; an admin restores it (Clients: Restore) before a sync can change it',
  restored: 'Customer restored',
  released: "The erased customer's external id is free: a new record can be imported under it",
  nothingToRestore:
    'This customer is neither deleted nor erased with an external id: there is nothing to restore',
} as const;

/** The provider's subscriber or account number, kept exactly as given. */
export const externalIdField = z
  .string({ error: customerSyncMessages.externalIdInvalid })
  .check(z.regex(/^[A-Za-z0-9][A-Za-z0-9._\-/:]{0,63}$/, { error: customerSyncMessages.externalIdInvalid }));

export const externalIdParamSchema = z.object({ externalId: externalIdField });

/**
 * POST /admin/user/customers/{customerId}/restore: a deleted customer comes back (`restored`); an
 * erased one stays erased, and its tombstone gives up its external id (`released`), so the subscriber
 * system may import a new record under it.
 */
export const restoredCustomerSchema = z.object({
  customerId: z.int(),
  result: z.enum(['restored', 'released']),
  /** The external id the customer held (now free when `released`). */
  externalId: z.nullable(z.string()),
});

const requiredName = (message: string) =>
  z
    .string({ error: message })
    .check(
      z.trim(),
      z.minLength(1, { error: message }),
      z.maxLength(100, { error: 'Must be at most 100 characters' }),
    );

const optionalText = (max: number, name: string) =>
  z.optional(
    z.nullable(
      z.string().check(z.trim(), z.maxLength(max, { error: `${name} must be at most ${max} characters` })),
    ),
  );

/**
 * One customer as the subscriber system knows it. PUT replaces the record: a field left out or
 * null is cleared (status defaults to ACTIVE; a cancelled subscription sends BLOCKED).
 */
export const customerRecordSchema = z.object({
  firstName: requiredName(customerSyncMessages.firstNameRequired),
  lastName: requiredName(customerSyncMessages.lastNameRequired),
  email: emailField,
  phone: z.optional(z.nullable(optionalPhoneField)),
  address: optionalText(300, 'address'),
  status: z.optional(z.enum(['ACTIVE', 'BLOCKED'], { error: customerSyncMessages.statusInvalid })),
  internetAccountNumber: optionalText(64, 'internetAccountNumber'),
});
export type CustomerRecord = z.output<typeof customerRecordSchema>;

/** POST /admin/user/customers (Add customer): the record and its external id. */
export const addCustomerBodySchema = z.extend(customerRecordSchema, { externalId: externalIdField });
export type AddCustomerBody = z.output<typeof addCustomerBodySchema>;

export const SYNC_RESULTS = ['created', 'updated', 'unchanged'] as const;
export type SyncResult = (typeof SYNC_RESULTS)[number];

/** A customer as the sync sees it: the list's fields and the sync's own. */
export const syncedCustomerSchema = z.extend(customerSchema, {
  externalId: z.nullable(z.string()),
  internetAccountNumber: z.nullable(z.string()),
});
export type SyncedCustomer = z.infer<typeof syncedCustomerSchema>;

export const customerSyncResultSchema = z.object({
  result: z.enum(SYNC_RESULTS),
  customer: syncedCustomerSchema,
});

// ---------------------------------------------------------------------------------------------
// Imports

/** The fields of an import row, `externalId` first (a CSV header names them, in any order). */
export const IMPORT_FIELDS = [
  'externalId',
  'firstName',
  'lastName',
  'email',
  'phone',
  'address',
  'status',
  'internetAccountNumber',
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];
export const REQUIRED_IMPORT_FIELDS: readonly ImportField[] = [
  'externalId',
  'firstName',
  'lastName',
  'email',
];

/** A header as people write it ('First name', 'first_name', 'FIRSTNAME') → the field it names, or null. */
export function importFieldOf(header: string): ImportField | null {
  const key = header
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '');
  return IMPORT_FIELDS.find((f) => f.toLowerCase() === key) ?? IMPORT_ALIASES[key] ?? null;
}

const IMPORT_ALIASES: Record<string, ImportField> = {
  id: 'externalId',
  subscriberid: 'externalId',
  subscribernumber: 'externalId',
  accountstatus: 'status',
  phonenumber: 'phone',
  emailaddress: 'email',
  accountnumber: 'internetAccountNumber',
};

export const IMPORT_STATES = ['receiving', 'queued', 'running', 'done', 'failed'] as const;

/** The largest import file (bytes). */
export const MAX_IMPORT_BYTES = 200 * 1024 * 1024;
/** The longest line a file may have: a customer is a few hundred bytes; more is a quote left open. */
export const MAX_IMPORT_LINE_BYTES = 64 * 1024;

export const importMessages = {
  notFound: 'Import not found',
  empty: 'The file is empty: it needs a header row and at least one customer',
  noRows: 'The file has a header row but no customers',
  notCsv:
    'The file is not a CSV this import reads: send text/csv with a header row (externalId first) or application/x-ndjson',
  contentType: 'Send the file as text/csv or application/x-ndjson',
  missingColumns: (names: string[]) =>
    `The header row lacks the required column${names.length > 1 ? 's' : ''} ${names.join(', ')}`,
  unknownColumns: (names: string[]) =>
    `Unknown column${names.length > 1 ? 's' : ''} ${names.map((n) => `'${n}'`).join(', ')}: rename ${names.length > 1 ? 'them' : 'it'} to one of ${IMPORT_FIELDS.join(', ')}, or send unknownColumns=ignore`,
  duplicateColumn: (name: string) => `The header row names ${name} twice`,
  mappingInvalid: `mapping must be a JSON object from a column of the header row to one of ${IMPORT_FIELDS.join(', ')} or 'ignore'`,
  mappingUnknownColumns: (names: string[]) =>
    `The mapping names ${names.map((n) => `'${n}'`).join(', ')}, not in the header row`,
  externalIdFirst: 'externalId must be the first column',
  tooLarge: `The file is too large (at most ${MAX_IMPORT_BYTES / 1024 / 1024} MiB): split it`,
  lineTooLong: (line: number) =>
    `Line ${line} of the file is longer than ${MAX_IMPORT_LINE_BYTES / 1024} KiB: a customer takes a few hundred bytes; is a quote left open, or is this not a customer file?`,
  duplicateInFile: (row: number) => `The same externalId is already on row ${row} of this file`,
  started: 'Import started',
  dryRun: 'Dry run: nothing was changed',
  uploadInterrupted:
    'The upload was taken for a cut-off one before the whole file was in, and nothing of it will be applied; send the file again',
  dryRunInterrupted: 'The dry run was interrupted before every row was decided; run it again',
} as const;

/** What a column of the header may be mapped to: a field, or 'ignore' (the column is skipped). */
export const IMPORT_MAPPING_TARGETS = [...IMPORT_FIELDS, 'ignore'] as const;
export type ImportMappingTarget = (typeof IMPORT_MAPPING_TARGETS)[number];

/**
 * The `mapping` query parameter, parsed: header cell (as written, trimmed) → field or 'ignore'. A
 * column the mapping does not name is matched by its name (`importFieldOf`), as without a mapping.
 */
export const importMappingSchema = z.record(
  z.string().check(z.maxLength(200)),
  z.enum(IMPORT_MAPPING_TARGETS),
);
export type ImportMapping = z.infer<typeof importMappingSchema>;

export const importQuerySchema = z.object({
  /** The file's name, for the activity log (the console sends the chosen file's name). */
  fileName: z.optional(
    z.string().check(z.trim(), z.maxLength(200, { error: 'fileName must be at most 200 characters' })),
  ),
  /** `ignore`: columns the import does not know are skipped (else a 400 names them). */
  unknownColumns: z.optional(
    z.enum(['reject', 'ignore'], { error: "unknownColumns must be 'reject' or 'ignore'" }),
  ),
  /**
   * A JSON object naming what some columns of the header row hold, e.g.
   * `{"Subscriber No":"externalId","Notes":"ignore"}` (the console's column mapping). The other
   * columns are matched by name. A column the header lacks is a 400.
   */
  mapping: z.optional(
    z.string().check(z.maxLength(8000, { error: 'mapping must be at most 8000 characters' })),
  ),
});

/** How many rejected rows a dry run lists (the counts cover them all). */
export const DRY_RUN_REJECTS = 20;

/** POST /admin/customers/imports/dry-run: what the import of the file would do; nothing is applied. */
export const importDryRunSchema = z.object({
  fileName: z.string(),
  format: z.enum(['csv', 'ndjson']),
  rowsRead: z.int(),
  created: z.int(),
  updated: z.int(),
  unchanged: z.int(),
  rejected: z.int(),
  /** The first rejected rows (at most DRY_RUN_REJECTS), by row number (the header is row 1). */
  rejects: z.array(z.object({ row: z.int(), externalId: z.nullable(z.string()), reason: z.string() })),
});
export type ImportDryRun = z.infer<typeof importDryRunSchema>;

export const importIdParamSchema = z.object({ id: idField('id') });

export const importJobSchema = z.object({
  id: z.int(),
  state: z.enum(IMPORT_STATES),
  fileName: z.string(),
  format: z.enum(['csv', 'ndjson']),
  rowsRead: z.int(),
  /** Rows applied so far (created + updated + unchanged + rejected once done). */
  rowsDone: z.int(),
  created: z.int(),
  updated: z.int(),
  unchanged: z.int(),
  rejected: z.int(),
  error: z.nullable(z.string()),
  createdAt: z.string(),
  finishedAt: z.nullable(z.string()),
});
export type ImportJob = z.infer<typeof importJobSchema>;
