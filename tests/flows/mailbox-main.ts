import { startMailbox } from './mailbox';

/**
 * `npm run mailbox`: the capture mailbox (tests/flows/mailbox.ts) on MAILBOX_SMTP_PORT (default 1025)
 * and MAILBOX_HTTP_PORT (default 8025), bound to MAILBOX_HOST (default 127.0.0.1). A server sends to
 * it with SMTP_URL=smtp://127.0.0.1:1025; the walk reads it with FLOWS_MAILBOX_URL=http://127.0.0.1:8025.
 */
const port = (name: string, fallback: number) => {
  const raw = process.env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65_535)
    throw new Error(`${name} must be a port number`);
  return value;
};

const mailbox = await startMailbox({
  smtpPort: port('MAILBOX_SMTP_PORT', 1025),
  httpPort: port('MAILBOX_HTTP_PORT', 8025),
  host: process.env.MAILBOX_HOST || '127.0.0.1',
});
console.log(`capture mailbox: SMTP ${mailbox.smtpUrl}, web and API ${mailbox.httpUrl}`);

const stop = async () => {
  await mailbox.close();
  process.exit(0);
};
process.once('SIGTERM', stop);
process.once('SIGINT', stop);
