import fc from 'fast-check';
import { HonoRequest } from 'hono/request';
import { tryDecodeURI, tryDecodeURIComponent } from 'hono/utils/url';
import { z } from 'zod';

/**
 * Malformed requests derived from the contract's zod schemas, for the API fuzz test
 * (server/fuzz.test.ts). Each request starts from a valid one and breaks it: a field of the wrong
 * type, missing or extra, huge or hostile strings (unicode, lone surrogates, U+0000, SQL and script
 * fragments), negative, fractional and non-finite numbers, broken JSON, wrong content types, broken
 * query strings and path segments, bad Idempotency-Key and If-Match headers. The generators read
 * each field's type and limits from the schema, so a new field is fuzzed without a change here.
 */

// ---------------------------------------------------------------------------------------------
// zod introspection (zod 4: every schema carries its definition in `_zod.def`)

type Def = { type: string } & Record<string, unknown>;
type Schema = z.core.$ZodType;
const defOf = (s: Schema): Def => (s as unknown as { _zod: { def: Def } })._zod.def;
const WRAPPERS = new Set(['optional', 'default', 'nullable', 'prefault', 'readonly', 'catch', 'nonoptional']);

/** The base schemas a field is made of: wrappers removed, both sides of a pipe kept (in first). */
export function leavesOf(s: Schema): Schema[] {
  const def = defOf(s);
  if (WRAPPERS.has(def.type)) return leavesOf(def.innerType as Schema);
  if (def.type === 'pipe') {
    const input = def.in as Schema;
    const output = def.out as Schema;
    return [...(defOf(input).type === 'transform' ? [] : leavesOf(input)), ...leavesOf(output)];
  }
  return [s];
}

const kindOf = (s: Schema) => defOf(leavesOf(s)[0] ?? s).type;
const shapeOf = (s: Schema): Record<string, Schema> | null => {
  const leaf = leavesOf(s)[0];
  return leaf && defOf(leaf).type === 'object' ? (defOf(leaf).shape as Record<string, Schema>) : null;
};
const elementOf = (s: Schema): Schema | null => {
  const leaf = leavesOf(s)[0];
  return leaf && defOf(leaf).type === 'array' ? (defOf(leaf).element as Schema) : null;
};
type Bounds = { minLength?: number | null; maxLength?: number | null; minValue?: number; maxValue?: number };
type Aggregate = {
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  format?: string;
};
type CheckDef = {
  check: string;
  value?: number;
  inclusive?: boolean;
  minimum?: number;
  maximum?: number;
  length?: number;
  format?: string;
};
/**
 * A schema's limits, read from its checks as classic zod's `minLength`/`maxLength`/`minValue`/
 * `maxValue`/`format` getters read them (the contract's schemas are zod/mini, which has no such
 * getters): the tightest bound of each kind, a format schema counting as its own first check.
 */
function aggregateOf(s: Schema): Aggregate {
  const zod = (s as unknown as { _zod: { def: Def; traits: Set<string>; bag: Aggregate } })._zod;
  const checks = (zod.def.checks ?? []) as { _zod: { def: CheckDef } }[];
  const defs = [
    ...(zod.traits.has('$ZodCheck') ? [zod.def as unknown as CheckDef] : []),
    ...checks.map((c) => c._zod.def),
  ];
  const agg: Aggregate = {};
  const narrowMin = (key: 'minimum' | 'exclusiveMinimum', v: number | undefined) => {
    if (v !== undefined && (agg[key] === undefined || v > agg[key])) agg[key] = v;
  };
  const narrowMax = (key: 'maximum' | 'exclusiveMaximum', v: number | undefined) => {
    if (v !== undefined && (agg[key] === undefined || v < agg[key])) agg[key] = v;
  };
  for (const d of defs) {
    if (d.check === 'greater_than') narrowMin(d.inclusive ? 'minimum' : 'exclusiveMinimum', d.value);
    else if (d.check === 'less_than') narrowMax(d.inclusive ? 'maximum' : 'exclusiveMaximum', d.value);
    else if (d.check === 'min_length') narrowMin('minimum', d.minimum);
    else if (d.check === 'max_length') narrowMax('maximum', d.maximum);
    else if (d.check === 'length_equals') {
      narrowMin('minimum', d.length);
      narrowMax('maximum', d.length);
    } else if (d.check === 'string_format') agg.format = d.format;
    else if (d.check === 'number_format' && d.format) {
      agg.format = d.format;
      const [min, max] = z.core.util.NUMBER_FORMAT_RANGES[d.format as z.core.$ZodNumberFormats] ?? [];
      narrowMin('minimum', min);
      narrowMax('maximum', max);
    }
  }
  // what checks of other kinds left on the schema (never tighter than the above for zod's own)
  narrowMin('minimum', zod.bag.minimum);
  narrowMin('exclusiveMinimum', zod.bag.exclusiveMinimum);
  narrowMax('maximum', zod.bag.maximum);
  narrowMax('exclusiveMaximum', zod.bag.exclusiveMaximum);
  agg.format ??= zod.bag.format;
  return agg;
}
const boundsOf = (s: Schema): Bounds[] =>
  leavesOf(s).map((l) => {
    const type = defOf(l).type;
    if (type !== 'string' && type !== 'number') return {};
    const agg = aggregateOf(l);
    return type === 'string'
      ? { minLength: agg.minimum ?? null, maxLength: agg.maximum ?? null }
      : {
          minValue: Math.max(
            agg.minimum ?? Number.NEGATIVE_INFINITY,
            agg.exclusiveMinimum ?? Number.NEGATIVE_INFINITY,
          ),
          maxValue: Math.min(
            agg.maximum ?? Number.POSITIVE_INFINITY,
            agg.exclusiveMaximum ?? Number.POSITIVE_INFINITY,
          ),
        };
  });
const enumValuesOf = (s: Schema): string[] =>
  leavesOf(s).flatMap((l) => {
    const def = defOf(l);
    if (def.type === 'enum') return Object.values(def.entries as Record<string, string>).map(String);
    if (def.type === 'literal') return (def.values as unknown[]).map(String);
    return [];
  });
const formatOf = (s: Schema): string | null => {
  for (const l of leavesOf(s)) {
    const type = defOf(l).type;
    const format = type === 'string' || type === 'number' ? aggregateOf(l).format : undefined;
    if (format) return format;
  }
  return null;
};

// ---------------------------------------------------------------------------------------------
// Values

/** A JSON token written as is: numbers JSON.stringify cannot write (1e400, -0, 40-digit integers). */
export class RawJson {
  constructor(readonly text: string) {}
}

/** JSON text of a value, with RawJson tokens spliced in. */
export function toJsonText(value: unknown): string {
  const raws: string[] = [];
  const text = JSON.stringify(value, (_key, v) => {
    if (v instanceof RawJson) {
      raws.push(v.text);
      return `\u0001RAW${raws.length - 1}\u0001`;
    }
    return v;
  });
  return (text ?? '').replace(/"\\u0001RAW(\d+)\\u0001"/g, (_m, i) => raws[Number(i)]!);
}

/** Sets an own property, even `__proto__` (plain assignment would change the prototype). */
const define = (o: Record<string, unknown>, key: string, value: unknown) =>
  Object.defineProperty(o, key, { value, enumerable: true, configurable: true, writable: true });

const SQL = [
  "' OR '1'='1",
  '1; DROP TABLE users; --',
  "' UNION SELECT password_hash FROM users --",
  "1' AND pg_sleep(5) --",
  "'); DELETE FROM rewards; --",
  '\\',
  "''",
  '%',
  '_',
  '$1',
  "E'\\x00'",
];
const SCRIPT = [
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  'javascript:alert(1)',
  '{{7*7}}',
  // biome-ignore lint/suspicious/noTemplateCurlyInString: a template-injection probe, sent as text
  '${7*7}',
  '../../../../etc/passwd',
  '__proto__',
  'constructor',
  '{"$ne":null}',
];
const UNICODE = [
  '',
  ' ',
  '\t\r\n',
  '\u0000',
  'a\u0000b',
  '\ud800',
  'x\udfff',
  '\udbff\udbff',
  '😀'.repeat(3),
  '\u202eevil',
  '\u200b',
  '\ufeff',
  'e\u0301'.repeat(5),
  '١٢٣',
  '１２３',
  'Ǆ',
  '\uffff',
  'ß'.toUpperCase(),
  'İ',
];
const NUMERIC_TEXT = [
  '-1',
  '0',
  '-0',
  '1.5',
  '1e3',
  '1e400',
  '0x10',
  '0b1',
  '1_000',
  ' 1',
  '1 ',
  '+1',
  '01',
  'NaN',
  'Infinity',
  '-Infinity',
  '99999999999999999999',
  '2147483648',
  '9007199254740993',
  'null',
  'true',
  'undefined',
  '[]',
  '{}',
];
const DATE_TEXT = [
  '2026-02-30',
  '2026-13-01',
  '0000-01-01',
  '1899-12-31',
  '9999-12-31',
  '+275760-09-13',
  '2026-3-2',
  '2026-03-02T25:00:00Z',
  '2026-03-02T10:00:00+99:00',
  '2026-03-02T10:00:00',
  '1970-01-01T00:00:00Z',
  '2026-03-02 10:00',
  '20260302',
];

export const hostileStrings = fc.constantFrom(...SQL, ...SCRIPT, ...UNICODE, ...NUMERIC_TEXT, ...DATE_TEXT);

/** Any UTF-16 code units, lone surrogates and U+0000 included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((n) => String.fromCharCode(n));
export const anyString = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

/** Long strings: around a limit and far past it (kept under the 1 MiB body limit). */
const longString = (lengths: number[]) =>
  fc
    .tuple(
      fc.constantFrom('a', 'é', '😀', ' ', '<', "'", '\u0000', '9'),
      fc.oneof(fc.constantFrom(...lengths, 10_000), fc.integer({ min: 1_000, max: 60_000 })),
    )
    .map(([c, n]) => c.repeat(Math.max(1, Math.round(n / c.length))));

const lengthEdges = (s: Schema) =>
  boundsOf(s).flatMap((b) => [
    ...(typeof b.maxLength === 'number' && b.maxLength < 200_000 ? [b.maxLength + 1, b.maxLength * 2] : []),
    ...(typeof b.minLength === 'number' && b.minLength > 1 ? [b.minLength - 1] : []),
  ]);

const numberEdges = (s: Schema) =>
  boundsOf(s).flatMap((b) => [
    ...(typeof b.minValue === 'number' && Number.isFinite(b.minValue)
      ? [b.minValue, b.minValue - 1, b.minValue - 0.001]
      : []),
    ...(typeof b.maxValue === 'number' && Number.isFinite(b.maxValue)
      ? [b.maxValue + 1, b.maxValue + 0.5]
      : []),
  ]);

const SPECIAL_NUMBERS = [
  -1,
  0,
  -0.5,
  0.5,
  1.5,
  0.1 + 0.2,
  1e-7,
  Number.MIN_VALUE,
  2 ** 31,
  2 ** 31 - 1,
  2 ** 53 + 2,
  -(2 ** 53),
  1e21,
  1e308,
  -1e308,
];
const RAW_NUMBERS = [
  '1e400',
  '-1e400',
  '-0',
  '123456789012345678901234567890',
  '1E2',
  '0.000000000000000000001',
  '1.00',
];
const specialNumber = fc.oneof(
  fc.constantFrom(...SPECIAL_NUMBERS),
  fc.constantFrom(...RAW_NUMBERS).map((t) => new RawJson(t)),
  fc.double().map((n) => (Number.isFinite(n) ? n : new RawJson(n > 0 ? '1e400' : '-1e400'))),
  fc.integer(),
);

/** A value of another JSON type than `kind`. */
const wrongType = (kind: string) =>
  fc.oneof(
    ...(
      [
        kind !== 'string' ? fc.oneof(hostileStrings, fc.constantFrom('12', '1', 'true')) : null,
        kind !== 'number' ? specialNumber : null,
        kind !== 'boolean' ? fc.boolean() : null,
        fc.constant(null),
        kind !== 'array' ? fc.constantFrom([], [1], ['a', 'b'], [[]], [null]) : null,
        kind !== 'object' ? fc.constantFrom({}, { a: 1 }, { $gt: '' }, { toString: 'x' }) : null,
      ] as (fc.Arbitrary<unknown> | null)[]
    ).filter((a): a is fc.Arbitrary<unknown> => a !== null),
  );

const anyJson: fc.Arbitrary<unknown> = fc.oneof(wrongType('none'), anyString, specialNumber);

const caseVariants = (values: string[]) =>
  values.flatMap((v) => [v.toLowerCase(), v.toUpperCase(), ` ${v}`, `${v} `, `${v}\u0000`, `${v}x`]);

/** A wrong value for a field of this schema (as JSON). */
export function badJsonValue(s: Schema, depth = 0): fc.Arbitrary<unknown> {
  const kind = kindOf(s);
  const choices: fc.Arbitrary<unknown>[] = [wrongType(kind), hostileStrings, anyString];
  switch (kind) {
    case 'string': {
      const format = formatOf(s);
      choices.push(longString(lengthEdges(s)), fc.constantFrom(...DATE_TEXT));
      if (format === 'email') {
        choices.push(
          fc.constantFrom(
            'a@',
            '@b.c',
            'a@b',
            'a b@c.d',
            'a@b..c',
            `${'a'.repeat(250)}@b.cd`,
            'ä@ö.ü',
            'a@b.c\u0000',
          ),
        );
      }
      break;
    }
    case 'number':
      choices.push(specialNumber, specialNumber, fc.constantFrom(...numberEdges(s), 0));
      break;
    case 'enum':
    case 'literal':
      choices.push(fc.constantFrom(...caseVariants(enumValuesOf(s)), ''));
      break;
    case 'array': {
      const element = elementOf(s);
      choices.push(fc.constant([]), fc.constantFrom(new Array(5_000).fill(1), new Array(300).fill('x')));
      if (element && depth < 3)
        choices.push(fc.array(badJsonValue(element, depth + 1), { minLength: 1, maxLength: 4 }));
      break;
    }
    case 'object': {
      const shape = shapeOf(s);
      if (shape && Object.keys(shape).length && depth < 3) {
        choices.push(fc.dictionary(fc.constantFrom(...Object.keys(shape)), anyJson, { maxKeys: 3 }));
      }
      break;
    }
  }
  return fc.oneof(...choices);
}

/** A wrong value for a field of this schema, as query-string or path text. */
export function badTextValue(s: Schema): fc.Arbitrary<string> {
  const choices: fc.Arbitrary<string>[] = [
    hostileStrings,
    anyString,
    fc.constantFrom(...NUMERIC_TEXT),
    fc.constantFrom(...DATE_TEXT),
    longString([101, 1_000, 5_000]).map((x) => x.slice(0, 6_000)),
  ];
  const values = enumValuesOf(s);
  if (values.length) choices.push(fc.constantFrom(...caseVariants(values)));
  const edges = numberEdges(s).map(String);
  if (edges.length) choices.push(fc.constantFrom(...edges));
  return fc.oneof(...choices);
}

// ---------------------------------------------------------------------------------------------
// Requests

export type FuzzRequest = {
  method: string;
  /** Path and query, as sent. */
  url: string;
  headers: Record<string, string>;
  body?: string | Uint8Array<ArrayBuffer>;
  /** Which part was broken, for the report. */
  what: string;
};

export type RouteInput = {
  /** The route as the router spells it, e.g. /api/v1/admin/partners/:partnerId{[0-9]+}. */
  path: string;
  method: string;
  body?: Schema;
  query?: Schema;
  params?: Schema;
  /** A valid request: body, query, path parameters. */
  valid: { body?: Record<string, unknown>; query?: Record<string, string>; params?: Record<string, string> };
};

type Path = (string | number)[];
const clone = <T>(v: T): T => structuredClone(v);

function setAt(root: Record<string, unknown>, path: Path, value: unknown, remove = false) {
  let cur: Record<string | number, unknown> = root;
  for (const key of path.slice(0, -1)) {
    const next = cur[key];
    if (!next || typeof next !== 'object') return;
    cur = next as Record<string | number, unknown>;
  }
  const last = path.at(-1)!;
  if (remove) {
    if (Array.isArray(cur)) cur.splice(Number(last), 1);
    else delete cur[last];
  } else if (typeof last === 'string') define(cur as Record<string, unknown>, last, value);
  else cur[last] = value;
}

/** Every field of a schema (nested objects and array items of the valid value included). */
function slotsOf(s: Schema, value: unknown, path: Path = []): { path: Path; schema: Schema }[] {
  const out: { path: Path; schema: Schema }[] = [];
  const shape = shapeOf(s);
  if (shape) {
    for (const [key, field] of Object.entries(shape)) {
      out.push({ path: [...path, key], schema: field });
      const inner = (value as Record<string, unknown> | undefined)?.[key];
      if (inner !== undefined) out.push(...slotsOf(field, inner, [...path, key]));
    }
  }
  const element = elementOf(s);
  if (element && Array.isArray(value)) {
    value.forEach((item, i) => {
      out.push({ path: [...path, i], schema: element });
      out.push(...slotsOf(element, item, [...path, i]));
    });
  }
  return out;
}

/** Fields a caller must never set, and other names worth trying. */
export const FORBIDDEN_FIELDS = [
  'id',
  'balance',
  'partnerId',
  'role',
  'roleId',
  'permissions',
  'userType',
  'createdAt',
  'updatedAt',
  'deletedAt',
  'accountStatus',
  'status',
  'passwordHash',
  'builtIn',
  'totalAmount',
  'code',
  '__proto__',
  'constructor',
];
const extraKey = fc.oneof(
  fc.constantFrom(...FORBIDDEN_FIELDS),
  anyString.filter((k) => k.length > 0),
);

type Mutation = { op: 'set' | 'delete' | 'extra'; path: Path; value?: unknown };

function bodyMutations(schema: Schema, base: Record<string, unknown>): fc.Arbitrary<Mutation[]> {
  const slots = slotsOf(schema, base);
  const ops: fc.Arbitrary<Mutation>[] = [
    extraKey.chain((key) => anyJson.map((value) => ({ op: 'extra' as const, path: [key], value }))),
  ];
  if (slots.length) {
    ops.push(
      fc
        .constantFrom(...slots)
        .chain((slot) =>
          badJsonValue(slot.schema).map((value) => ({ op: 'set' as const, path: slot.path, value })),
        ),
      fc.constantFrom(...slots).map((slot) => ({ op: 'delete' as const, path: slot.path })),
    );
  }
  return fc.array(
    fc.oneof({ weight: 1, arbitrary: ops[0]! }, ...ops.slice(1).map((a) => ({ weight: 3, arbitrary: a }))),
    {
      minLength: 1,
      maxLength: 3,
    },
  );
}

const applyMutations = (base: Record<string, unknown>, mutations: Mutation[]) => {
  const body = clone(base);
  for (const m of mutations) setAt(body, m.path, m.value, m.op === 'delete');
  return body;
};

const describeMutations = (mutations: Mutation[]) =>
  mutations.map((m) => `${m.op} ${m.path.join('.')}`).join(', ');

const CONTENT_TYPES = [
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=x',
  'application/xml',
  'application/json; charset=utf-16',
  'APPLICATION/JSON',
  'application/vnd.api+json',
  'application/json, text/plain',
  'json',
  '',
];

/** Whole bodies that are not what the route takes at all. */
function brokenBodies(
  base: Record<string, unknown>,
): fc.Arbitrary<{ body: string | Uint8Array<ArrayBuffer>; type?: string; what: string }> {
  const text = toJsonText(base);
  return fc.oneof(
    fc
      .constantFrom<unknown>(null, [], [base], 'text', 0, -1, true, new RawJson('1e400'), [[[[]]]])
      .map((v) => ({ body: toJsonText(v), what: 'body not an object' })),
    fc
      .constantFrom(
        '{',
        '{"a":',
        '{"a":1,}',
        "{'a':1}",
        'undefined',
        'NaN',
        '\ufeff{}',
        `${text}${text}`,
        `${text},`,
        '{"a":1}garbage',
        '\u0000',
        `{${'"k":1,'.repeat(10)}}`,
      )
      .map((body) => ({ body, what: 'broken JSON' })),
    fc
      .integer({ min: 1, max: Math.max(1, text.length - 1) })
      .map((n) => ({ body: text.slice(0, n), what: 'truncated JSON' })),
    fc
      .integer({ min: 1_000, max: 50_000 })
      .map((n) => ({ body: `${'['.repeat(n)}${']'.repeat(n)}`, what: 'deeply nested JSON' })),
    fc.integer({ min: 1_000, max: 5_000 }).map((n) => ({
      body: `{${Array.from({ length: n }, (_, i) => `"k${i}":${i}`).join(',')}}`,
      what: 'many keys',
    })),
    fc
      .constantFrom(...CONTENT_TYPES)
      .map((type) => ({ body: text, type, what: `content-type ${type || '(empty)'}` })),
    fc.constantFrom('', '   ', '\n').map((body) => ({ body, what: 'empty body' })),
    fc
      .constantFrom(
        Uint8Array.from([0xff, 0xfe, 0x7b, 0x7d]),
        Uint8Array.from([0x7b, 0x22, 0x61, 0x22, 0x3a, 0x22, 0xc3, 0x28, 0x22, 0x7d]),
        new Uint8Array(Buffer.from(text, 'utf16le')),
        Uint8Array.from([0xed, 0xa0, 0x80]),
      )
      .map((body) => ({ body, what: 'bytes that are not UTF-8 JSON' })),
  );
}

/** A hostile header set: bad Idempotency-Key and If-Match values (only Latin-1 fits in a header). */
const latin1 = fc.string({
  unit: fc.integer({ min: 0x20, max: 0xff }).map((n) => String.fromCharCode(n)),
  maxLength: 30,
});
export const badHeaders: fc.Arbitrary<Record<string, string>> = fc.record(
  {
    'idempotency-key': fc.oneof(
      latin1,
      fc.constantFrom('', ' ', 'x'.repeat(201), 'é', 'a b', `fuzz-${'k'.repeat(150)}`),
      fc.uuid(),
    ),
    'if-match': fc.oneof(
      latin1,
      fc.constantFrom(
        '*',
        '"2026-03-02T09:00:00.000Z"',
        'W/"x"',
        '"9999-99-99T99:99:99Z"',
        '"2026-13-45T10:00:00Z"',
        '""',
        'x'.repeat(5_000),
      ),
    ),
  },
  { requiredKeys: [] },
);

/** Text that is safe in a URL: lone surrogates become U+FFFD (what UTF-8 would carry anyway). */
const wellFormed = (s: string) =>
  s.replace(/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g, '\ufffd');
const enc = (s: string) => encodeURIComponent(wellFormed(s));

const RAW_QUERY_GARBAGE = [
  '&&&',
  '=',
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%00',
  '+',
  ';a=1',
  '&=x',
  '&a',
  '%ED%A0%80',
  '%FF%FE',
  '[]=1',
  'a[b]=c',
];

type QueryValue = string | string[];
function queryMutations(
  schema: Schema | undefined,
  base: Record<string, string>,
): fc.Arbitrary<{ query: Record<string, QueryValue>; what: string }> {
  const shape = schema ? shapeOf(schema) : null;
  const keys = [...new Set([...Object.keys(shape ?? {}), ...Object.keys(base)])];
  const fieldOf = (k: string) => shape?.[k];
  const set = keys.length
    ? fc.constantFrom(...keys).chain((k) => {
        const field = fieldOf(k);
        return (field ? badTextValue(field) : hostileStrings).map((v) => ({
          k,
          v: v as QueryValue,
          what: `query ${k}`,
        }));
      })
    : null;
  const repeat = keys.length
    ? fc.constantFrom(...keys).chain((k) =>
        fc
          .array(fc.oneof(hostileStrings, fc.constant(base[k] ?? '1')), { minLength: 2, maxLength: 3 })
          .map((v) => ({
            k,
            v: v as QueryValue,
            what: `query ${k} repeated`,
          })),
      )
    : null;
  const extra = extraKey.chain((k) =>
    fc.oneof(hostileStrings, anyString).map((v) => ({ k, v: v as QueryValue, what: `query extra ${k}` })),
  );
  const remove = Object.keys(base).length
    ? fc
        .constantFrom(...Object.keys(base))
        .map((k) => ({ k, v: undefined as QueryValue | undefined, what: `query without ${k}` }))
    : null;
  const ops = [set, repeat, extra, remove].filter(
    (a): a is NonNullable<typeof a> => a !== null,
  ) as fc.Arbitrary<{
    k: string;
    v: QueryValue | undefined;
    what: string;
  }>[];
  return fc.array(fc.oneof(...ops), { minLength: 1, maxLength: 3 }).map((changes) => {
    const query: Record<string, QueryValue> = { ...base };
    for (const c of changes) {
      if (c.v === undefined) delete query[c.k];
      else define(query, c.k, c.v);
    }
    return { query, what: changes.map((c) => c.what).join(', ') };
  });
}

const queryText = (query: Record<string, QueryValue>, plusForSpace: boolean) =>
  Object.entries(query)
    .flatMap(([k, v]) => (Array.isArray(v) ? v : [v]).map((x) => `${enc(k)}=${enc(x)}`))
    .map((pair) => (plusForSpace ? pair.replace(/%20/g, '+') : pair))
    .join('&');

/** Path segments: numbers out of range, not numbers, broken percent-encoding (never empty or dot segments). */
const RAW_SEGMENTS = [
  '%',
  '%zz',
  '%E0%A4%A',
  '%C0%AF',
  '%00',
  '%ED%A0%80',
  '%FF',
  '%2F',
  '%3F',
  '%23',
  '%25',
];
function badSegment(schema: Schema | undefined): fc.Arbitrary<string> {
  return fc.oneof(
    fc.constantFrom(...RAW_SEGMENTS),
    (schema ? badTextValue(schema) : fc.oneof(hostileStrings, anyString))
      .map(enc)
      .filter((s) => s !== '' && s !== '.' && s !== '..' && !/^(%2e|\.){1,2}$/i.test(s)),
    fc.integer({ min: 1, max: 400 }).map((n) => '9'.repeat(n)),
  );
}

/** Every malformed request for one route. */
export function malformedRequests(route: RouteInput): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.path.matchAll(/:([A-Za-z_]+)(\{[^}]*\})?/g)].map((m) => m[1]!);
  const paramShape = route.params ? shapeOf(route.params) : null;
  const validParams = route.valid.params ?? {};
  const fill = (params: Record<string, string>) =>
    route.path.replace(/:([A-Za-z_]+)(\{[^}]*\})?/g, (_m, name: string) => params[name] ?? '1');
  const baseQuery = route.valid.query ?? {};
  const baseBody = route.valid.body ?? {};
  const takesBody = route.method !== 'GET';

  type Part = {
    params?: Record<string, string>;
    query?: Record<string, QueryValue>;
    rawQuery?: string;
    body?: string | Uint8Array<ArrayBuffer>;
    type?: string;
    what: string;
  };
  const parts: fc.Arbitrary<Part>[] = [];
  // The query string: every route gets one, whether it reads it or not.
  parts.push(queryMutations(route.query, baseQuery).map(({ query, what }) => ({ query, what })));
  parts.push(
    fc.tuple(fc.constantFrom(...RAW_QUERY_GARBAGE), fc.boolean()).map(([garbage, before]) => ({
      rawQuery: before
        ? `${garbage}&${queryText(baseQuery, false)}`
        : `${queryText(baseQuery, false)}&${garbage}`,
      what: `query garbage ${garbage}`,
    })),
  );
  if (paramNames.length) {
    // Weighed thrice: on most routes with a path parameter, it is the only input.
    const pathPart = fc.constantFrom(...paramNames).chain((name) =>
      badSegment(paramShape?.[name]).map((seg) => ({
        params: { ...validParams, [name]: seg },
        what: `path ${name}`,
      })),
    );
    parts.push(pathPart, pathPart, pathPart);
  }
  if (takesBody) {
    const bodyParts: fc.Arbitrary<Part>[] = [
      brokenBodies(baseBody).map((b) => ({ body: b.body, type: b.type, what: b.what })),
    ];
    if (route.body) {
      bodyParts.push(
        bodyMutations(route.body, baseBody).map((m) => ({
          body: toJsonText(applyMutations(baseBody, m)),
          what: describeMutations(m),
        })),
      );
    } else {
      bodyParts.push(
        anyJson.map((v) => ({ body: toJsonText(v), what: 'a body on a route that takes none' })),
      );
    }
    // Bodies weigh most on routes that take one.
    parts.push(...(route.body ? [...bodyParts, ...bodyParts, ...bodyParts] : bodyParts));
  }

  return fc
    .tuple(fc.oneof(...parts), fc.option(badHeaders, { freq: 4 }), fc.boolean())
    .map(([part, headers, plus]) => {
      const params = part.params ?? validParams;
      const query = part.rawQuery ?? queryText(part.query ?? baseQuery, plus);
      const url = `${fill(params)}${query ? `?${query}` : ''}`;
      const out: FuzzRequest = {
        method: route.method,
        url,
        headers: { ...(headers ?? {}) },
        what: part.what,
      };
      if (takesBody) {
        out.body = part.body ?? toJsonText(baseBody);
        out.headers['content-type'] = part.type ?? 'application/json';
        if (out.headers['content-type'] === '') delete out.headers['content-type'];
      }
      return out;
    });
}

// ---------------------------------------------------------------------------------------------
// What the contract says of a request

const JSON_MEDIA = /^application\/([\w.-]+\+)?json$/i;

/**
 * Whether the contract's schemas reject the request, reading it as the server does (the query and
 * path decoded by Hono, the body as UTF-8 text: empty means `{}`, anything but JSON is refused).
 * Returns the reason, or null when the request is valid.
 */
export function contractRejects(route: RouteInput, req: FuzzRequest): string | null {
  const url = new URL(req.url, 'http://fuzz.test');
  if (route.params) {
    const routeRe = new RegExp(
      `^${route.path.replace(/:([A-Za-z_]+)(\{([^}]*)\})?/g, (_m, _n, _b, re: string | undefined) => `(${re ?? '[^/]+'})`)}/?$`,
    );
    const match = routeRe.exec(tryDecodeURI(url.pathname));
    if (!match) return 'path does not match the route';
    const names = [...route.path.matchAll(/:([A-Za-z_]+)/g)].map((m) => m[1]!);
    const params = Object.fromEntries(names.map((n, i) => [n, tryDecodeURIComponent(match[i + 1]!)]));
    if (!z.safeParse(route.params, params).success) return 'path parameters';
  }
  if (route.query) {
    const raw = new HonoRequest(new Request(url)).queries();
    const query = Object.fromEntries(Object.entries(raw).map(([k, v]) => [k, v.length === 1 ? v[0] : v]));
    if (!z.safeParse(route.query, query).success) return 'query';
  }
  if (route.body && req.method !== 'GET') {
    const bytes =
      typeof req.body === 'string' ? new TextEncoder().encode(req.body) : (req.body ?? new Uint8Array());
    const text = new TextDecoder().decode(bytes);
    let value: unknown = {};
    if (text.trim() !== '') {
      const media = req.headers['content-type']?.split(';')[0]?.trim() ?? '';
      if (!JSON_MEDIA.test(media)) return 'content type';
      try {
        value = JSON.parse(text);
      } catch {
        return 'JSON syntax';
      }
    }
    if (!z.safeParse(route.body, value).success) return 'body';
  }
  return null;
}
