import { css } from '../../styled-system/css';
import { Button } from './ui/button';
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
