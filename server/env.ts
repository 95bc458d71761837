import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { isAddressOrCidr, type TrustProxy } from './http/trust-proxy';

/** SPA_DIR is taken relative to the repository (where `vite build` writes), not the working directory. */
const REPO_ROOT = fileURLToPath(new URL('..', import.meta.url));

/** The process environment, validated once at start. This module is the only reader of `process.env`. */
const booleanish = (fallback: boolean) =>
  z
    .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
    .optional()
    .transform((v) => (v === undefined || v === '' ? fallback : ['true', '1', 'yes', 'on'].includes(v)));

const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

export const logLevels = ['debug', 'info', 'warn', 'error', 'silent'] as const;
export type LogLevel = (typeof logLevels)[number];

/** `true`/`false` (and their spellings), or a comma-separated list of proxy addresses and CIDR ranges. */
const trustProxy = z
  .string()
  .optional()
  .transform((v, ctx): TrustProxy => {
    const text = (v ?? '').trim().toLowerCase();
    if (['', 'false', '0', 'no', 'off'].includes(text)) return false;
    if (['true', '1', 'yes', 'on'].includes(text)) return true;
    const entries = text
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean);
    const bad = entries.filter((e) => !isAddressOrCidr(e));
    if (bad.length) {
      ctx.addIssue({
        code: 'custom',
        message: `not an address or CIDR range: ${bad.join(', ')} (expected e.g. 127.0.0.1,10.0.0.0/8, or true/false)`,
      });
      return z.NEVER;
    }
    return Object.freeze(entries);
  });

const port = z.coerce.number().int().min(0).max(65_535);

const envSchema = z
  .object({
    NODE_ENV: z.string().optional(),
    PORT: port.default(3000),
    /** The address to bind; all interfaces when unset. */
    HOST: optionalText,
    /** Prometheus metrics on their own port (never the public one); none when unset. */
    METRICS_PORT: optionalText.pipe(
      z.coerce.number<string | undefined>().int().min(0).max(65_535).optional(),
    ),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().min(0).max(600).default(10),
    DATA_DIR: z.string().min(1).default('./data'),
    SPA_DIR: z.string().min(1).default('./dist'),
    DATABASE_URL: optionalText.pipe(z.url({ protocol: /^postgres(ql)?$/ }).optional()),
    SMTP_URL: optionalText.pipe(z.url({ protocol: /^smtps?$/ }).optional()),
    /** The console's public address, used in the links of mails; default: this server's own address. */
    APP_URL: optionalText.pipe(z.url({ protocol: /^https?$/ }).optional()),
    MAIL_FROM: z.string().min(3).default('Reward Club <no-reply@rewardclub.ng>'),
    JWT_SECRET: optionalText.pipe(z.string().min(32, 'JWT_SECRET must be at least 32 characters').optional()),
    ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(1).max(86_400).default(900),
    REFRESH_TOKEN_TTL_DAYS: z.coerce.number().min(0.0001).max(365).default(7),
    ADMIN_EMAIL: optionalText.pipe(z.email().optional()),
    ADMIN_PASSWORD: optionalText,
    /** Default: on in development, off in production. */
    SEED_DEMO: z
      .enum(['true', 'false', '1', '0', 'yes', 'no', 'on', 'off', ''])
      .optional()
      .transform((v) => (v === undefined || v === '' ? undefined : ['true', '1', 'yes', 'on'].includes(v))),
    TRUST_PROXY: trustProxy,
    LOG_LEVEL: z.enum(logLevels).default('info'),
    BENCH_METRICS: booleanish(false),
    WEBHOOK_ALLOW_PRIVATE: booleanish(false),
  })
  .refine((e) => !e.ADMIN_EMAIL || !!e.ADMIN_PASSWORD, {
    message: 'ADMIN_PASSWORD is required when ADMIN_EMAIL is set',
    path: ['ADMIN_PASSWORD'],
  })
  .refine((e) => e.NODE_ENV !== 'production' || !!e.JWT_SECRET, {
    message:
      'JWT_SECRET is required when NODE_ENV=production (at least 32 characters, e.g. `openssl rand -hex 32`); it signs the access tokens of every instance',
    path: ['JWT_SECRET'],
  })
  .refine((e) => e.METRICS_PORT === undefined || e.METRICS_PORT === 0 || e.METRICS_PORT !== e.PORT, {
    message: 'METRICS_PORT must differ from PORT (the metrics are not served on the public port)',
    path: ['METRICS_PORT'],
  });

export type Env = {
  /** NODE_ENV=production: no demo data unless SEED_DEMO asks, JWT_SECRET required, no SPA build at start. */
  production: boolean;
  port: number;
  host: string | undefined;
  metricsPort: number | undefined;
  metricsHost: string;
  /** How long SIGTERM waits for in-flight requests before closing their connections. */
  shutdownTimeoutMs: number;
  dataDir: string;
  /** The built SPA (`vite build` output) the server serves; outside production built at start when missing. */
  spaDir: string;
  databaseUrl: string | undefined;
  smtpUrl: string | undefined;
  mailFrom: string;
  /** The console's public address (APP_URL), the origin of the links in mails. */
  appUrl: string;
  jwtSecret: string | undefined;
  accessTokenTtlSeconds: number;
  refreshTokenTtlDays: number;
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  seedDemo: boolean;
  trustProxy: TrustProxy;
  logLevel: LogLevel;
  /** Benchmarks only (tests/bench/api-load.bench.ts): serves BENCH_METRICS_PATH. Off unless BENCH_METRICS is set. */
  benchMetrics: boolean;
  /** Webhooks may go to private, loopback and link-local addresses (docs/decisions/027). Off by default. */
  webhookAllowPrivate: boolean;
  /** NODE_ENV as given ('development' when unset); GET /health reports it (the flow walk refuses 'production'). */
  environment: string;
};

/** The server's own address, for links when APP_URL is not set: its host (localhost when it binds all). */
function ownOrigin(host: string | undefined, port: number): string {
  const name =
    !host || host === '0.0.0.0' || host === '::' ? 'localhost' : host.includes(':') ? `[${host}]` : host;
  return `http://${name}:${port}`;
}

/** Parses an environment (default: `process.env`); throws a readable error listing every bad variable. */
export function readEnv(source: Record<string, string | undefined> = process.env): Env {
  const parsed = envSchema.safeParse(source);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new Error(`Invalid environment:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  const production = e.NODE_ENV === 'production';
  return {
    production,
    port: e.PORT,
    host: e.HOST,
    metricsPort: e.METRICS_PORT,
    metricsHost: e.METRICS_HOST,
    shutdownTimeoutMs: e.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    dataDir: resolve(e.DATA_DIR),
    spaDir: resolve(REPO_ROOT, e.SPA_DIR),
    databaseUrl: e.DATABASE_URL,
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    appUrl: (e.APP_URL ?? ownOrigin(e.HOST, e.PORT)).replace(/\/+$/, ''),
    jwtSecret: e.JWT_SECRET,
    accessTokenTtlSeconds: e.ACCESS_TOKEN_TTL_SECONDS,
    refreshTokenTtlDays: e.REFRESH_TOKEN_TTL_DAYS,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    seedDemo: e.SEED_DEMO ?? !production,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    benchMetrics: e.BENCH_METRICS,
    webhookAllowPrivate: e.WEBHOOK_ALLOW_PRIVATE,
    environment: e.NODE_ENV ?? 'development',
  };
}
