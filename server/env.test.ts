import { describe, expect, it } from 'vitest';
import { readEnv } from './env';

describe('readEnv', () => {
  it('APP_URL: the console address of the mails; default the server own address; checked', () => {
    expect(readEnv({}).appUrl).toBe('http://localhost:3000');
    expect(readEnv({ PORT: '8080', HOST: '10.0.0.5' }).appUrl).toBe('http://10.0.0.5:8080');
    expect(readEnv({ APP_URL: 'https://admin.rewardclub.ng/' }).appUrl).toBe('https://admin.rewardclub.ng');
    expect(() => readEnv({ APP_URL: 'admin.rewardclub.ng' })).toThrow(/APP_URL/);
    expect(() => readEnv({ APP_URL: 'ftp://admin.rewardclub.ng' })).toThrow(/APP_URL/);
  });

  it('has the documented defaults', () => {
    const env = readEnv({});
    expect(env).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      smtpUrl: undefined,
      jwtSecret: undefined,
      accessTokenTtlSeconds: 900,
      refreshTokenTtlDays: 7,
      seedDemo: true,
      trustProxy: false,
      logLevel: 'info',
      benchMetrics: false,
      webhookAllowPrivate: false,
      environment: 'development',
    });
    expect(readEnv({ NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32) }).environment).toBe('production');
    expect(env.dataDir).toMatch(/\/data$/);
  });

  it('treats empty strings as unset and parses booleans and numbers', () => {
    const env = readEnv({
      DATABASE_URL: '',
      SEED_DEMO: 'false',
      TRUST_PROXY: '1',
      PORT: '4173',
      ACCESS_TOKEN_TTL_SECONDS: '5',
      BENCH_METRICS: '1',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    expect(env).toMatchObject({
      databaseUrl: undefined,
      seedDemo: false,
      trustProxy: true,
      port: 4173,
      accessTokenTtlSeconds: 5,
      benchMetrics: true,
      webhookAllowPrivate: true,
    });
  });

  it('lists every bad variable', () => {
    expect(() => readEnv({ PORT: 'abc', DATABASE_URL: 'mysql://x', JWT_SECRET: 'short' })).toThrow(
      /PORT[\s\S]*DATABASE_URL[\s\S]*JWT_SECRET/,
    );
    expect(() => readEnv({ ADMIN_EMAIL: 'a@b.co' })).toThrow(/ADMIN_PASSWORD/);
  });
});
