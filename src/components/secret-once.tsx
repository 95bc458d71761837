import { type QueryKey, useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useState } from 'react';
import { css } from '../../styled-system/css';
import { authErrorMessage, fieldErrorsOf } from '../lib/error-message';
import { Button } from './ui/button';
import { Dialog } from './ui/dialog';
import { TextField } from './ui/field';
import { notify } from './ui/notify';

const mono = css({ fontFamily: 'mono', fontSize: 'xs', wordBreak: 'break-all' });

/**
 * A secret the server shows once (an API key, a webhook's signing secret): the warning, the value
 * in a read-only field to select, a Copy button and Done. Nothing keeps it after Done.
 */
export function SecretOnce({
  label,
  value,
  warning,
  copyLabel,
  copied,
  onDone,
}: {
  /** The field's label ('API key'). */
  label: string;
  value: string;
  /** Why to copy it now. */
  warning: string;
  copyLabel: string;
  /** The toast after a copy. */
  copied: string;
  onDone: () => void;
}) {
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      notify.success(copied);
    } catch {
      notify.error(`Could not copy: select the ${label} and copy it by hand`);
    }
  };
  return (
    <div className={css({ display: 'grid', gap: '3' })}>
      <p role="alert">{warning}</p>
      <TextField label={label} readOnly value={value} className={mono} />
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button variant="outline" onClick={() => void copy()}>
          {copyLabel}
        </Button>
        <Button onClick={onDone}>Done</Button>
      </div>
    </div>
  );
}

type SecretTexts = Omit<Parameters<typeof SecretOnce>[0], 'value' | 'onDone'>;

/**
 * A create dialog whose answer carries a secret shown once (an API key, a webhook): the form, the
 * server's field errors on their fields (else a toast), then `SecretOnce`; closing resets the form
 * (`onReset`) so the next opening starts empty.
 */
export function SecretCreateDialog<T>({
  open,
  onClose,
  onReset,
  title,
  createdTitle,
  create,
  invalidate,
  secretOf,
  secret,
  submitLabel,
  submittingLabel,
  children,
}: {
  open: boolean;
  onClose: () => void;
  onReset: () => void;
  title: string;
  createdTitle: string;
  create: () => Promise<T>;
  invalidate: QueryKey;
  secretOf: (created: T) => string;
  secret: SecretTexts;
  submitLabel: string;
  submittingLabel: string;
  /** The form's fields, given the server's field errors by field name. */
  children: (errors: Record<string, string>) => ReactNode;
}) {
  const queryClient = useQueryClient();
  const [created, setCreated] = useState<T | null>(null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const mutation = useMutation({
    mutationFn: create,
    onSuccess: (value) => {
      setCreated(value);
      return queryClient.invalidateQueries({ queryKey: invalidate });
    },
    onError: (e) => {
      const fields = fieldErrorsOf(e);
      if (fields.length)
        setErrors(Object.fromEntries(fields.map((f) => [f.fieldName.split('.')[0] as string, f.message])));
      else notify.error(authErrorMessage(e));
    },
  });
  const close = () => {
    setCreated(null);
    setErrors({});
    onReset();
    onClose();
  };
  const submit = (e: FormEvent) => {
    e.preventDefault();
    setErrors({});
    mutation.mutate();
  };
  return (
    <Dialog
      open={open}
      onOpenChange={(o) => (o ? undefined : close())}
      title={created ? createdTitle : title}
    >
      {created ? (
        <SecretOnce {...secret} value={secretOf(created)} onDone={close} />
      ) : (
        <form onSubmit={submit} className={css({ display: 'grid', gap: '3' })} noValidate>
          {children(errors)}
          <Button type="submit" loading={mutation.isPending} loadingText={submittingLabel}>
            {submitLabel}
          </Button>
        </form>
      )}
    </Dialog>
  );
}
