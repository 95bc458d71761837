import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { customerPrivacyMessages, erasureSummary } from '../../../../../contract/customer-privacy';
import type { Customer } from '../../../../../contract/customers';
import { css } from '../../../../../styled-system/css';
import { downloadCustomerData, eraseCustomer } from '../../../../api/customer-privacy';
import { customerKeys } from '../../../../api/customers';
import { DetailCard } from '../../../../components/detail-list';
import { Button } from '../../../../components/ui/button';
import { Checkbox } from '../../../../components/ui/checkbox';
import { Dialog } from '../../../../components/ui/dialog';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { formatDate } from '../../../../lib/format';
import { saveFile } from '../../../../lib/save-file';

const listClass = css({ listStyleType: 'disc', pl: '5', fontSize: 'sm', display: 'grid', gap: '1' });
const headingClass = css({ fontSize: 'sm', fontWeight: 'semibold', mt: '4', mb: '1' });

/**
 * The customer's rights on the client detail (issue 28, decision 054), for club admins holding
 * customers.privacy: "Export this customer's data" downloads the JSON file; "Erase this customer"
 * confirms what goes and what stays, and shows the server's refusal (a redemption in flight).
 */
export function CustomerPrivacy({ customer, name }: { customer: Customer; name: string }) {
  const queryClient = useQueryClient();
  const [confirming, setConfirming] = useState(false);
  const [understood, setUnderstood] = useState(false);
  const download = useMutation({
    mutationFn: () => downloadCustomerData(customer.id),
    onSuccess: (file) => saveFile(file.blob, file.filename),
    onError: (error) => notify.error(errorSentence(error)),
  });
  const erase = useMutation({
    mutationFn: () => eraseCustomer(customer.id),
    onSuccess: ({ message }) => {
      notify.success(message);
      setConfirming(false);
      void queryClient.invalidateQueries({ queryKey: customerKeys.all });
    },
  });
  const close = () => {
    if (erase.isPending) return;
    setConfirming(false);
    setUnderstood(false);
    erase.reset();
  };

  return (
    <DetailCard label="Privacy">
      <h2 className={css({ fontSize: 'md', fontWeight: 'semibold', mb: '3' })}>Privacy</h2>
      {customer.erasedAt ? (
        <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>
          {customerPrivacyMessages.erasedNotice} on {formatDate(customer.erasedAt)}. Their visits, rewards and
          ledger amounts stay in the books without a name.
        </p>
      ) : (
        <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3' })}>
          <Button
            variant="outline"
            loading={download.isPending}
            loadingText="Exporting"
            onClick={() => download.mutate()}
          >
            Export this customer's data
          </Button>
          <Button variant="danger" onClick={() => setConfirming(true)}>
            Erase this customer
          </Button>
        </div>
      )}
      <Dialog open={confirming} onOpenChange={(open) => !open && close()} title="Erase this customer">
        <p className={css({ fontSize: 'sm' })}>
          {name}'s personal data is erased for good. This cannot be undone.
        </p>
        <h3 className={headingClass}>What goes</h3>
        <ul className={listClass} aria-label="What goes">
          {erasureSummary.goes.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <h3 className={headingClass}>What stays</h3>
        <ul className={listClass} aria-label="What stays">
          {erasureSummary.stays.map((line) => (
            <li key={line}>{line}</li>
          ))}
        </ul>
        <div className={css({ mt: '4' })}>
          <Checkbox
            label={`I understand that ${name}'s personal data cannot be brought back`}
            checked={understood}
            onChange={(e) => setUnderstood(e.currentTarget.checked)}
          />
        </div>
        {erase.error ? (
          <p role="alert" className={css({ mt: '3', fontSize: 'sm', color: 'red.700' })}>
            {errorSentence(erase.error)}
          </p>
        ) : null}
        <div
          className={css({
            display: 'flex',
            justifyContent: 'flex-end',
            flexWrap: 'wrap',
            gap: '2',
            mt: '6',
          })}
        >
          <Button variant="outline" disabled={erase.isPending} onClick={close}>
            Cancel
          </Button>
          <Button
            variant="danger"
            disabled={!understood}
            loading={erase.isPending}
            loadingText="Erasing"
            onClick={() => erase.mutate()}
          >
            Erase customer
          </Button>
        </div>
      </Dialog>
    </DetailCard>
  );
}
