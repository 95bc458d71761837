import { RESET_MAIL_SUBJECT } from '../contract/auth';
import { INVITE_MAIL_SUBJECT } from '../contract/staff';
import { INVITE_CODE_TTL_MS, RESET_CODE_TTL_MS } from './domain/reset-codes';
import type { AppConfig } from './types';

/*
 * The texts of the mails that lead a person into the console (issue 22): each is written once, as
 * paragraphs, and rendered twice, as plain text and as HTML (nodemailer sends both as
 * multipart/alternative). The words name the screens and buttons exactly as the SPA shows them.
 */

/** The console's public address the mails link to: APP_URL (server/env.ts), else the server's own. */
export const appUrl = (config: Pick<AppConfig, 'appUrl'>): string => config.appUrl ?? 'http://localhost:3000';

/** The labels of the lines that carry a one-time code. */
const CODE_LINES = {
  reset: 'Your reset code is:',
  invite: 'Your set-password code is:',
} as const;

type Paragraph =
  | string
  | { kind: 'action'; label: string; url: string }
  | { kind: 'code'; label: string; code: string };

/** '72 hours', '15 minutes': a lifetime as the mail says it, from the constant that sets it. */
export function lifetimeText(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const [n, unit] =
    minutes % (24 * 60) === 0 && minutes > 72 * 60
      ? [minutes / (24 * 60), 'day']
      : minutes % 60 === 0
        ? [minutes / 60, 'hour']
        : [minutes, 'minute'];
  return `${n} ${unit}${n === 1 ? '' : 's'}`;
}

/** The set-password screen with the code (and the email, to sign in after) filled in. */
export function setPasswordLink(appUrl: string, code: string, email: string): string {
  const url = new URL('/reset-password', appUrl.endsWith('/') ? appUrl : `${appUrl}/`);
  url.searchParams.set('code', code);
  url.searchParams.set('email', email);
  return url.toString();
}

const consoleAddress = (appUrl: string) => new URL(appUrl).toString().replace(/\/$/, '');

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);

function toText(paragraphs: Paragraph[]): string {
  return paragraphs
    .map((p) =>
      typeof p === 'string' ? p : p.kind === 'action' ? `${p.label}:\n${p.url}` : `${p.label} ${p.code}`,
    )
    .join('\n\n');
}

function toHtml(subject: string, paragraphs: Paragraph[]): string {
  const body = paragraphs
    .map((p) => {
      if (typeof p === 'string') return `<p style="margin:0 0 16px">${escapeHtml(p)}</p>`;
      if (p.kind === 'code') {
        return `<p style="margin:0 0 16px">${escapeHtml(p.label)} <strong style="font-family:monospace;font-size:18px;letter-spacing:2px">${escapeHtml(p.code)}</strong></p>`;
      }
      return `<p style="margin:0 0 24px"><a href="${escapeHtml(p.url)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:#1d4ed8;color:#ffffff;font-weight:600;text-decoration:none">${escapeHtml(p.label)}</a></p>`;
    })
    .join('\n');
  return [
    '<!doctype html>',
    '<html lang="en"><head><meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(subject)}</title></head>`,
    '<body style="margin:0;padding:24px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#1f2937">',
    '<div style="max-width:560px;margin:0 auto">',
    body,
    '</div></body></html>',
  ].join('\n');
}

/**
 * A mail as the outbox stores it (server/mail.ts's MailMessage, which this module does not import:
 * the templates know nothing of the outbox, the routes put the one into the other).
 */
type RenderedMail = { to: string; subject: string; text: string; html: string };

function mail(to: string, subject: string, paragraphs: Paragraph[]): RenderedMail {
  return { to, subject, text: toText(paragraphs), html: toHtml(subject, paragraphs) };
}

/** The staff invitation: a link that opens 'Reset your password' with the code, and the code itself. */
export function inviteMail(o: {
  to: string;
  firstName: string;
  inviter: string;
  roleName: string;
  /** Partner staff: the partner they work at. */
  organizationName?: string | null;
  code: string;
  appUrl: string;
}) {
  const lifetime = lifetimeText(INVITE_CODE_TTL_MS);
  const at = o.organizationName ? ` at ${o.organizationName}` : '';
  return mail(o.to, INVITE_MAIL_SUBJECT, [
    `Hello ${o.firstName},`,
    `${o.inviter} invited you to Reward Club Admin as ${o.roleName}${at}.`,
    { kind: 'action', label: 'Set your password', url: setPasswordLink(o.appUrl, o.code, o.to) },
    'The link opens the Reward Club Admin screen "Reset your password" with your code filled in. ' +
      'Enter a new password in "New Password" and "Confirm Password", then press "Update password": ' +
      'you are signed in.',
    { kind: 'code', label: CODE_LINES.invite, code: o.code },
    `If the link does not open, go to ${consoleAddress(o.appUrl)}, choose "Forgot password?", then ` +
      '"I have a reset code", and enter this code with your new password. Afterwards you sign in ' +
      'with this email address.',
    `The code is valid for ${lifetime} and can be used once. After that, ask for a new code with ` +
      '"Forgot password?" on the sign-in screen.',
    'Reward Club',
  ]);
}

/** The password reset: a link that opens 'Reset your password' with the code, and the code itself. */
export function resetMail(o: { to: string; firstName: string; code: string; appUrl: string }) {
  const lifetime = lifetimeText(RESET_CODE_TTL_MS);
  return mail(o.to, RESET_MAIL_SUBJECT, [
    `Hello ${o.firstName},`,
    'We received a request to reset the password of your Reward Club admin account.',
    { kind: 'action', label: 'Reset your password', url: setPasswordLink(o.appUrl, o.code, o.to) },
    { kind: 'code', label: CODE_LINES.reset, code: o.code },
    `If the link does not open, go to ${consoleAddress(o.appUrl)}, choose "Forgot password?", then ` +
      '"I have a reset code", and enter this code with your new password.',
    `The code is valid for ${lifetime} and can be used once. If you did not ask for it, ignore this ` +
      'mail: your password stays as it is.',
    'Reward Club',
  ]);
}

/** The approvals screen of the console (issue 35): where a holder of `rewards.approve` decides. */
export function approvalsLink(appUrl: string): string {
  return new URL('/dashboard/approvals', appUrl.endsWith('/') ? appUrl : `${appUrl}/`).toString();
}

/** The approvals mail's subject: what waits, in a few words. */
export const approvalMailSubject = (what: string) => `Waiting for your approval: ${what}`;

/**
 * To every holder of `rewards.approve` but the maker, when a campaign or a single reward starts
 * waiting for a second person (decision 074): what waits, who asked, why, until when; a link to the
 * Approvals screen.
 */
export function approvalRequestMail(o: {
  to: string;
  firstName: string;
  /** 'campaign December thank-you at Mama Put: 5 customers, ₦12,500.00' */
  what: string;
  maker: string;
  reasons: string[];
  /** The day it expires if nobody decides, as people read it. */
  expiresOn: string;
  appUrl: string;
}) {
  return mail(o.to, approvalMailSubject(o.what), [
    `Hello ${o.firstName},`,
    `${o.maker} asks for a second person's approval of ${o.what}.`,
    ...o.reasons.map((r) => `${r}.`),
    { kind: 'action', label: 'Open Approvals', url: approvalsLink(o.appUrl) },
    `Approve or reject it with a reason on the Reward Club Admin screen "Approvals". If nobody decides by ${o.expiresOn}, it expires and nothing is issued. The person who asked cannot approve it themselves.`,
    'Reward Club',
  ]);
}
