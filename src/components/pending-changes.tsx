import { useSelector } from '@xstate/react';
import { createContext, type ReactNode, useContext, useState } from 'react';
import { css } from '../../styled-system/css';
import { appDb } from '../db/app-db';
import { formatDateTime } from '../lib/format';
import { discardAll, OUTBOX_MESSAGES } from '../lib/outbox';
import { TEXTS } from '../lib/texts';
import type { ConflictActor } from '../machines/conflict.machine';
import { nextPending } from '../machines/outbox.machine';
import { useOutbox, useOutboxEntries } from './outbox-provider';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';

/**
 * The outbox on screen (issue 6): a bar with the count of changes saved on this device and not yet
 * sent, opening the list with Retry and Discard on each; the 409 dialog when one of them meets a
 * record changed on the server; and the warning before signing out with unsent changes.
 */

const FIELD_NAMES: Record<string, string> = {
  firstName: 'First Name',
  lastName: 'Last Name',
  organizationName: 'Organization',
  address: 'Address',
  phone: 'Phone',
  email: 'Email',
  minSpendToQualify: 'Minimum spend',
  extendedServiceIds: 'Extended services',
  coverImage: 'Cover image',
  profileImage: 'Profile image',
  title: 'Title',
  description: 'Description',
};
/** A body field as the screens name it ('address' → 'Address'). */
export const fieldLabel = (field: string): string => FIELD_NAMES[field] ?? field;
const ID_FIELDS = new Set(['partnerId', 'customerId', 'extendedServiceId']);

const shown = (field: string, value: unknown): string => {
  if (value === undefined || value === null || value === '') return '-';
  if (field === 'coverImage' || field === 'profileImage') return 'an image';
  if (Array.isArray(value)) return value.join(', ');
  return String(value);
};

/** The fields an edit changes, with the server's value beside the user's. */
export function changedFields(mine: unknown, theirs: unknown) {
  const body = (mine ?? {}) as Record<string, unknown>;
  const current = (theirs ?? {}) as Record<string, unknown>;
  return Object.keys(body)
    .filter((k) => !ID_FIELDS.has(k))
    .map((k) => ({
      field: k,
      name: fieldLabel(k),
      mine: shown(k, body[k]),
      theirs: k in current ? shown(k, current[k]) : '-',
    }));
}

export interface ConflictDialogProps {
  open: boolean;
  label: string;
  mine: unknown;
  theirs: unknown;
  pending?: boolean;
  onKeepMine: () => void;
  onUseTheirs: () => void;
  onClose?: () => void;
}

/** 409: the record changed on the server after it was read; the user keeps theirs or takes the server's. */
export function ConflictDialog({
  open,
  label,
  mine,
  theirs,
  pending = false,
  onKeepMine,
  onUseTheirs,
  onClose,
}: ConflictDialogProps) {
  const rows = changedFields(mine, theirs);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && !pending && onClose?.()}
      title={TEXTS.conflict.title}
      closable={Boolean(onClose)}
    >
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>{TEXTS.conflict.explain(label)}</p>
      {rows.length ? (
        <table className={css({ w: 'full', fontSize: 'sm', borderCollapse: 'collapse' })}>
          <thead>
            <tr className={css({ textAlign: 'left', color: 'fg.muted' })}>
              <th className={css({ py: '1', pr: '2' })}>Field</th>
              <th className={css({ py: '1', pr: '2' })}>Theirs (on the server)</th>
              <th className={css({ py: '1' })}>Yours</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((r) => (
              <tr key={r.field} className={css({ borderTopWidth: '1px', borderColor: 'border.default' })}>
                <th
                  scope="row"
                  className={css({ py: '1.5', pr: '2', textAlign: 'left', fontWeight: 'medium' })}
                >
                  {r.name}
                </th>
                <td className={css({ py: '1.5', pr: '2', wordBreak: 'break-word' })}>{r.theirs}</td>
                <td className={css({ py: '1.5', wordBreak: 'break-word' })}>{r.mine}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      <div
        className={css({
          display: 'flex',
          justifyContent: 'flex-end',
          alignItems: 'center',
          gap: '2',
          mt: '6',
        })}
      >
        <Button variant="outline" onClick={onUseTheirs} disabled={pending}>
          {TEXTS.conflict.useTheirs}
        </Button>
        <Button onClick={onKeepMine} loading={pending} loadingText={TEXTS.conflict.saving}>
          {TEXTS.conflict.keepMine}
        </Button>
      </div>
    </Dialog>
  );
}

/**
 * The 409 choice on screen, driven by a `conflict` actor (src/machines/conflict.machine.ts): the one
 * dialog of the outbox's queue and of an online form's save.
 */
export function ConflictChoiceDialog({ actor }: { actor: ConflictActor }) {
  const choosing = useSelector(actor, (s) => s.matches('choosing') || s.matches('keeping'));
  const keeping = useSelector(actor, (s) => s.matches('keeping'));
  const c = useSelector(actor, (s) => s.context);
  return (
    <ConflictDialog
      open={choosing}
      label={c.label}
      mine={c.mine}
      theirs={c.theirs}
      pending={keeping}
      onClose={c.closable ? () => actor.send({ type: 'conflict.close' }) : undefined}
      onKeepMine={() => actor.send({ type: 'conflict.keepMine' })}
      onUseTheirs={() => actor.send({ type: 'conflict.useTheirs' })}
    />
  );
}

/** The queue's 409 dialog: shown while the outbox machine waits for the user's choice. */
export function OutboxConflictDialog() {
  const { actor } = useOutbox();
  const choice = useSelector(actor, (s) =>
    s.matches('conflict') ? (s.children.choice as ConflictActor | undefined) : undefined,
  );
  return choice ? <ConflictChoiceDialog key={choice.id} actor={choice} /> : null;
}

/** Above every dashboard screen while changes wait: the count, opening the list. */
export function PendingChangesBar() {
  const { actor } = useOutbox();
  const entries = useOutboxEntries();
  const [open, setOpen] = useState(false);
  const online = useSelector(actor, (s) => s.context.online);
  const sendingId = useSelector(actor, (s) =>
    s.matches('sending') ? (nextPending(s.context.entries)?.id ?? null) : null,
  );
  const busy = useSelector(
    actor,
    (s) => !s.matches('idle') && !s.matches('backoff') && !s.matches('conflict'),
  );
  const failed = entries.filter((e) => e.status === 'failed').length;
  if (entries.length === 0) return null;
  return (
    <section
      aria-label="Changes not sent yet"
      className={css({
        display: 'flex',
        alignItems: 'center',
        gap: '3',
        flexWrap: 'wrap',
        px: { base: '4', md: '8' },
        py: '2',
        fontSize: 'sm',
        bg: 'brand.50',
        color: 'brand.900',
        borderBottomWidth: '1px',
        borderColor: 'brand.100',
      })}
    >
      <span className={css({ flex: '1' })}>
        {entries.length === 1 ? '1 change is' : `${entries.length} changes are`} saved on this device
        {failed ? `, ${failed} refused by the server` : online ? ', sending' : ' until you are back online'}.
      </span>
      <Button size="sm" variant="outline" onClick={() => setOpen(true)} aria-haspopup="dialog">
        Pending changes
        <span
          data-testid="pending-count"
          className={css({
            ml: '2',
            px: '2',
            borderRadius: 'full',
            bg: 'brand.700',
            color: 'fg.onBrand',
            fontWeight: 'bold',
          })}
        >
          {entries.length}
        </span>
      </Button>
      <Dialog open={open} onOpenChange={setOpen} title="Pending changes">
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
          Saved on this device and sent in this order when the network is there.
        </p>
        <ul
          aria-label="Pending changes"
          className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}
        >
          {entries.map((e) => (
            <li
              key={e.id}
              aria-label={e.label}
              className={css({
                borderWidth: '1px',
                borderColor: e.status === 'failed' ? 'red.300' : 'border.default',
                borderRadius: 'md',
                p: '3',
              })}
            >
              <div className={css({ fontWeight: 'medium' })}>{e.label}</div>
              <div className={css({ fontSize: 'xs', color: 'fg.muted' })}>
                Saved {formatDateTime(e.createdAt)} ·{' '}
                {e.id === sendingId ? 'Sending…' : e.status === 'failed' ? 'Refused' : 'Waiting'}
              </div>
              {e.error ? (
                <p role="alert" className={css({ fontSize: 'xs', color: 'red.700', mt: '1' })}>
                  {e.error}
                </p>
              ) : null}
              <div className={css({ display: 'flex', gap: '2', mt: '2', justifyContent: 'flex-end' })}>
                <Button
                  size="sm"
                  variant="outline"
                  disabled={busy}
                  onClick={() => actor.send({ type: 'outbox.retry', id: e.id })}
                >
                  Retry
                </Button>
                <Button
                  size="sm"
                  variant="danger"
                  disabled={busy}
                  onClick={() => actor.send({ type: 'outbox.discard', id: e.id })}
                >
                  Discard
                </Button>
              </div>
            </li>
          ))}
        </ul>
      </Dialog>
    </section>
  );
}

/**
 * Sign-out with unsent changes asks first: signing out discards them (the device is wiped). Returns
 * the guarded action and the dialog to render.
 */
export function useGuardedSignOut(signOut: () => void) {
  const { userId } = useOutbox();
  const entries = useOutboxEntries();
  const [asking, setAsking] = useState(false);
  const request = () => (entries.length > 0 ? setAsking(true) : signOut());
  const dialog = (
    <Dialog open={asking} onOpenChange={setAsking} title="Sign out with unsent changes?">
      <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
        {entries.length === 1 ? '1 change' : `${entries.length} changes`}: {OUTBOX_MESSAGES.discardConfirm}
      </p>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', mt: '6' })}>
        <Button variant="outline" onClick={() => setAsking(false)}>
          Stay signed in
        </Button>
        <Button
          variant="danger"
          onClick={() => {
            setAsking(false);
            void discardAll(appDb, userId)
              .catch(() => undefined)
              .then(signOut);
          }}
        >
          Sign out anyway
        </Button>
      </div>
    </Dialog>
  );
  return { request, dialog };
}

const SignOutContext = createContext<(() => void) | null>(null);

/** Puts the guarded sign-out where the sidebar and the top bar can reach it, with its dialog. */
export function SignOutGuard({ signOut, children }: { signOut: () => void; children: ReactNode }) {
  const { request, dialog } = useGuardedSignOut(signOut);
  return (
    <SignOutContext.Provider value={request}>
      {children}
      {dialog}
    </SignOutContext.Provider>
  );
}

/** The sign-out to call: the guarded one inside the dashboard, else `fallback` (e.g. in a lone test). */
export function useSignOut(fallback: () => void): () => void {
  return useContext(SignOutContext) ?? fallback;
}
