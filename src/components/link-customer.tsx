import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { type ConfirmedLink, customerLinkMessages, parseMemberNumber } from '../../contract/customer-links';
import { css } from '../../styled-system/css';
import { askCustomerLink, confirmCustomerLink } from '../api/customer-links';
import { errorSentence } from '../lib/error-message';
import { Button } from './ui/button';
import { TextField } from './ui/field';

/** What the partner asks by: the whole email address or the member number the customer gives. */
function askedBy(text: string): { email: string } | { memberNumber: string } | null {
  const t = text.trim();
  if (parseMemberNumber(t) !== null) return { memberNumber: t };
  if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(t)) return { email: t };
  return null;
}

/**
 * A customer new to the partner is linked in place (issue 28, decision 053): "Send the customer a
 * code" mails them a one-time code, the staff member types the code the customer gives, and the
 * customer is linked. Shown where a search by the whole email or member number found nobody.
 */
export function LinkCustomer({
  partnerId,
  asked,
  onLinked,
}: {
  partnerId: number;
  /** The search text: a whole email address or a member number (RC-000123). */
  asked: string;
  onLinked: (link: ConfirmedLink) => void;
}) {
  const [request, setRequest] = useState<{ id: number } | null>(null);
  const [code, setCode] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const by = askedBy(asked);
  const send = useMutation({
    mutationFn: () => askCustomerLink({ ...by, partnerId }),
    onSuccess: (data) => {
      setRequest({ id: data.id });
      setCode('');
      setProblem(null);
    },
    onError: (error) => setProblem(errorSentence(error)),
  });
  const confirm = useMutation({
    mutationFn: () => confirmCustomerLink(request!.id, code.trim()),
    onSuccess: (link) => onLinked(link),
    onError: (error) => setProblem(errorSentence(error)),
  });
  if (!by) return null;
  return (
    <section
      aria-label="Link the customer"
      className={css({ display: 'flex', flexDirection: 'column', gap: '2', p: '3', layerStyle: 'outlined' })}
    >
      {request ? (
        <>
          <p className={css({ fontSize: 'sm' })}>{customerLinkMessages.sent}</p>
          <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end', flexWrap: 'wrap' })}>
            <TextField
              label="Code from the customer"
              inputMode="numeric"
              autoComplete="one-time-code"
              value={code}
              onChange={(e) => setCode(e.target.value)}
              onKeyDown={(e) => {
                if (e.key === 'Enter') {
                  e.preventDefault();
                  if (code.trim()) confirm.mutate();
                }
              }}
            />
            <Button
              loading={confirm.isPending}
              loadingText="Linking"
              onClick={() => code.trim() && confirm.mutate()}
            >
              Link customer
            </Button>
            <Button variant="ghost" loading={send.isPending} onClick={() => send.mutate()}>
              Send a new code
            </Button>
          </div>
        </>
      ) : (
        <>
          <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
            New here? The customer is linked to your partner with a code mailed to them.
          </p>
          <div>
            <Button
              variant="outline"
              loading={send.isPending}
              loadingText="Sending"
              onClick={() => send.mutate()}
            >
              Send the customer a code
            </Button>
          </div>
        </>
      )}
      {problem ? (
        <p role="alert" className={css({ fontSize: 'sm', color: 'fg.error' })}>
          {problem}
        </p>
      ) : null}
    </section>
  );
}
