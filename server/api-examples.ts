import { z } from 'zod';
import { type ApiEndpoint, apiEndpoints, apiRoute } from '../contract/api';
import type { ImportDryRun } from '../contract/customer-sync';
import { CSV_EXPORT_COLUMNS, type ImportRejectRow, importRejectCsvColumns } from './http/csv-columns';
import { csvText } from './http/csv-export';
import { solidPng } from './seed/png';

/**
 * Examples for the reference (issue 21): each endpoint's request body and success `data`, from the
 * registry's hand-written `examples` where it has them, else made from the schema (formats, enums,
 * bounds and field names: an `email` gets an address, an image a small PNG). Every example is
 * parsed with the very schema it illustrates, and one that does not parse is left out, so the
 * reference never shows a body the server would refuse (server/openapi.test.ts prints the coverage).
 */
type JsonSchema = {
  type?: string | string[];
  format?: string;
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  example?: unknown;
  examples?: unknown[];
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  minItems?: number;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
};

const PNG = solidPng(2, 2, [30, 120, 200]).toString('base64');

/** Values a field's name asks for, when its schema alone says too little. */
function byName(name: string): unknown {
  const n = name.toLowerCase();
  if (n.includes('email')) return 'ada.obi@example.com';
  if (n.includes('phone')) return '08031234567';
  if (n.includes('password')) return 'Tr1cky-Passw0rd';
  if (n.endsWith('url'))
    return n === 'url' ? 'https://pos.example.com/hooks' : `/api/v1/files/${'3f'.repeat(32)}`;
  if (n.includes('image')) return PNG;
  if (n === 'secret') return `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
  if (n === 'attendantname') return 'Bisi';
  if (n === 'messageid') return 'msg_6f1c2b1e3c1a4d8e9a7e2f0b8f3c1d55';
  if (n === 'otp') return '482913';
  if (n === 'resetcode') return 'K7QF2M9X';
  if (n === 'refreshtoken') return 'q9Yx3lGZ2m0wq5bZp7Vt1c8Rk4Hf6Jd2Ns0Ue3Ai5Lo';
  if (n === 'code') return 'GC-7Q4K-9XMB';
  if (n.endsWith('date') || n.endsWith('at')) return '2026-03-01T10:00:00.000Z';
  if (n === 'organizationname' || n === 'partnername') return 'Mama Put Kitchen';
  if (n === 'title') return 'Welcome gift card';
  if (n === 'items.name' || n === 'visititems.name') return 'Jollof rice';
  if (n.includes('name'))
    return n.startsWith('first') ? 'Ada' : n.startsWith('last') ? 'Obi' : 'Mama Put Kitchen';
  return undefined;
}

export function sampleOf(s: JsonSchema, name = ''): unknown {
  if (s.example !== undefined) return s.example;
  if (s.examples?.length) return s.examples[0];
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const options = s.anyOf ?? s.oneOf;
  if (options) return sampleOf(options.find((o) => o.type !== 'null') ?? options[0]!, name);
  if (s.allOf?.length) return sampleOf(s.allOf[0]!, name);
  if (s.default !== undefined) return s.default;
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  switch (type) {
    case 'object':
      return Object.fromEntries(
        Object.entries(s.properties ?? {}).map(([k, v]) => [
          k,
          sampleOf(v, k === 'name' ? `${name}.name` : k),
        ]),
      );
    case 'array':
      return Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => sampleOf(s.items ?? {}, name));
    case 'integer':
    case 'number': {
      const low = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
      const n = name.toLowerCase();
      const wanted = /amount|price|spend|balance|fee|total/.test(n) ? 2500 : /id$/.test(n) ? 12 : 1;
      return Math.min(Math.max(low, wanted), s.maximum ?? Number.MAX_SAFE_INTEGER);
    }
    case 'boolean':
      return true;
    case 'null':
      return null;
    case 'string': {
      if (s.format === 'date') return '2026-03-01';
      if (s.format === 'date-time') return '2026-03-01T10:00:00.000Z';
      if (s.format === 'email') return 'ada.obi@example.com';
      if (s.format === 'uri' || s.format === 'url') return 'https://pos.example.com/hooks';
      const named = byName(name);
      if (typeof named === 'string') return named;
      const text = 'Example text';
      return text.padEnd(s.minLength ?? 0, 'x').slice(0, s.maxLength ?? text.length);
    }
    default:
      return byName(name) ?? null;
  }
}

/** A schema's example (input side for requests, output for answers), or undefined when none parses. */
export function exampleFor(schema: z.core.$ZodType, io: 'input' | 'output', given?: unknown): unknown {
  const candidate =
    given !== undefined
      ? given
      : sampleOf(
          z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema,
        );
  return z.safeParse(schema, candidate).success ? candidate : undefined;
}

/** A raw answer that is a JSON file with its own schema (a customer's data export), not `null`. */
export const jsonFile = (e: ApiEndpoint): boolean =>
  e.raw?.contentType === 'application/json' && e.data._zod.def.type !== 'null';

/** The examples of one endpoint: `body` (input) and `data` (the success envelope's data). */
export function examplesOf(e: ApiEndpoint): { body?: unknown; data?: unknown } {
  return {
    ...(e.body ? { body: exampleFor(e.body, 'input', e.examples?.body) } : {}),
    ...(!e.raw || jsonFile(e) ? { data: exampleFor(e.data, 'output', e.examples?.data) } : {}),
  };
}

/**
 * A CSV answer's example, made by the product rather than typed again: a list's export is the file
 * the server writes (the export's own columns, `csvText`) for the list's own example records; the
 * import's rejects are the dry run's example rejects, each with the line as sent. Without the byte
 * order mark the file starts with. Undefined for any other answer.
 */
export function csvExampleOf(e: ApiEndpoint): string | undefined {
  if (e.raw?.contentType !== 'text/csv') return undefined;
  const columns = CSV_EXPORT_COLUMNS[`${e.method.toUpperCase()} ${e.path}`];
  if (columns) {
    const list = apiEndpoints.find((l) => l.method === 'get' && l.path === e.path.replace(/\/export$/, ''));
    const records = list && (examplesOf(list).data as { records?: unknown[] } | undefined)?.records;
    return records ? csvText(columns, records, true) : undefined;
  }
  if (e.path === '/admin/customers/imports/{id}/rejects') {
    const dryRun = examplesOf(apiRoute('POST /admin/customers/imports/dry-run')).data as
      | ImportDryRun
      | undefined;
    const rows: ImportRejectRow[] = (dryRun?.rejects ?? []).map((r) => ({
      ...r,
      raw: `${r.externalId ?? ''},Ada,Obi,ada.obi@`,
    }));
    return rows.length ? csvText(importRejectCsvColumns, rows, true) : undefined;
  }
  return undefined;
}
