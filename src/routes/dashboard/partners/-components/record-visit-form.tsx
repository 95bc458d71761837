import { useForm } from '@tanstack/react-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { IMAGE_HELPER_TEXT } from '../../../../../contract/images';
import { visitServerMessages } from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { findVisitCustomers, recordVisit, visitKeys } from '../../../../api/visits';
import { AppForm } from '../../../../components/app-form';
import { LinkCustomer } from '../../../../components/link-customer';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { fieldProps, fileToBase64, firstError, validateOnChangeAndBlur } from '../../../../lib/form';
import { formatNaira, fullName } from '../../../../lib/format';
import { imageFileProblem } from '../../../../lib/image-file';
import {
  emptyRecordVisitForm,
  emptyVisitItem,
  localNow,
  recordVisitFormSchema,
  toVisitBody,
  visitTotal,
} from '../../../../lib/record-visit-form';

interface Customer {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

/** A first visit: the customer is nobody's here yet, so only the whole address finds them (decision 049). */
const VISIT_CUSTOMER_HINT =
  "A first visit? Type the customer's whole email address or member number, then send them a code.";

const grid = css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } });
const itemRow = css({
  display: 'grid',
  gap: '2',
  alignItems: 'start',
  gridTemplateColumns: { base: '1fr 5rem', sm: '1fr 5rem 8rem auto' },
});
const fieldset = css({ display: 'flex', flexDirection: 'column', gap: '3' });
const legend = css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' });

/**
 * Recording a customer's visit at the counter (POST /user/visits): the customer (searched among
 * the partner's customers, or linked by a code), the attendant, when, the items bought and a photo
 * of the receipt (the phone's camera opens for it). The total is the server's, from the items; the
 * form shows the same sum. A TanStack form under `AppForm` (decision 058, rule 2): each rule's
 * message under its field, the server's field errors too; the customer search is plain state (a
 * search box, rule 3).
 */
export function RecordVisitForm({ partnerId, onDone }: { partnerId: number; onDone: () => void }) {
  const { session } = useRouteContext({ from: '__root__' });
  const me = useSelector(session, (s) => s.context.session?.user ?? null);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState<string | null>(null);
  const [found, setFound] = useState<Customer[]>([]);
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [receiptError, setReceiptError] = useState<string | undefined>();

  const lookup = useMutation({
    mutationFn: (text: string) => findVisitCustomers({ partnerId, search: text }),
    onSuccess: (customers, text) => {
      setFound(customers);
      setSearched(text);
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const save = useMutation({
    mutationFn: recordVisit,
    onSuccess: () => {
      notify.success(visitServerMessages.recorded);
      void queryClient.invalidateQueries({ queryKey: visitKeys.all });
      onDone();
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const form = useForm({
    defaultValues: emptyRecordVisitForm(fullName(me?.firstName, me?.lastName)),
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: recordVisitFormSchema },
    onSubmit: ({ value }) => save.mutateAsync(toVisitBody(value, partnerId)),
  });
  const choose = (c: Customer | null) => {
    setCustomer(c);
    form.setFieldValue('customerId', c?.id ?? null);
  };
  const find = () => {
    if (search.trim()) lookup.mutate(search.trim());
  };

  return (
    <AppForm
      form={form}
      aria-label="Record a visit"
      className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
    >
      <form.Field name="customerId">
        {(field) => {
          const error = firstError(field.state.meta);
          return (
            <fieldset
              className={fieldset}
              aria-invalid={error ? true : undefined}
              aria-describedby={error ? 'visit-customer-error' : undefined}
            >
              <legend className={legend}>Customer</legend>
              {customer ? (
                <p className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
                  <strong>{fullName(customer.firstName, customer.lastName)}</strong>
                  <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>{customer.email}</span>
                  <Button size="sm" variant="ghost" onClick={() => choose(null)}>
                    Change
                  </Button>
                </p>
              ) : (
                <>
                  <div className={css({ display: 'flex', gap: '2', alignItems: 'flex-end' })}>
                    <TextField
                      label="Find customer (name or email)"
                      helperText={VISIT_CUSTOMER_HINT}
                      value={search}
                      onChange={(e) => setSearch(e.target.value)}
                      onKeyDown={(e) => {
                        if (e.key === 'Enter') {
                          e.preventDefault();
                          find();
                        }
                      }}
                    />
                    <Button variant="outline" loading={lookup.isPending} loadingText="Finding" onClick={find}>
                      Find
                    </Button>
                  </div>
                  {searched !== null && found.length === 0 ? (
                    <>
                      <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                        No customer matches '{searched}'
                      </p>
                      <LinkCustomer
                        key={searched}
                        partnerId={partnerId}
                        asked={searched}
                        onLinked={(link) => {
                          choose(link.customer);
                          setFound([]);
                          setSearched(null);
                        }}
                      />
                    </>
                  ) : null}
                  <ul
                    aria-label="Customers found"
                    className={css({ display: 'flex', flexDir: 'column', gap: '2' })}
                  >
                    {found.map((c) => (
                      <li
                        key={c.id}
                        className={css({
                          display: 'flex',
                          justifyContent: 'space-between',
                          alignItems: 'center',
                          gap: '2',
                          p: '2',
                          layerStyle: 'outlined',
                          fontSize: 'sm',
                        })}
                      >
                        <span>
                          {fullName(c.firstName, c.lastName)}{' '}
                          <span className={css({ color: 'fg.muted' })}>{c.email}</span>
                        </span>
                        <Button size="sm" onClick={() => choose(c)}>
                          Choose
                        </Button>
                      </li>
                    ))}
                  </ul>
                </>
              )}
              {error ? (
                <p id="visit-customer-error" className={css({ color: 'fg.error', fontSize: 'sm' })}>
                  {error}
                </p>
              ) : null}
            </fieldset>
          );
        }}
      </form.Field>

      <div className={grid}>
        <form.Field name="attendantName">
          {(field) => <TextField label="Attendant" autoComplete="off" {...fieldProps(field)} />}
        </form.Field>
        <form.Field name="visitDate">
          {(field) => (
            <TextField
              label="Visit date and time"
              type="datetime-local"
              max={localNow()}
              {...fieldProps(field)}
            />
          )}
        </form.Field>
      </div>

      <form.Field name="items" mode="array">
        {(items) => (
          <fieldset className={fieldset}>
            <legend className={legend}>Items bought</legend>
            {items.state.value.map((_, i) => (
              // TanStack Form keeps an array field's rows by index: a removed row's state goes with it.
              // biome-ignore lint/suspicious/noArrayIndexKey: rows are named by their index (items[i].name)
              <div key={i} className={itemRow}>
                <form.Field name={`items[${i}].name`}>
                  {(field) => <TextField label={`Item ${i + 1}`} autoComplete="off" {...fieldProps(field)} />}
                </form.Field>
                <form.Field name={`items[${i}].quantity`}>
                  {(field) => <TextField label="Qty" inputMode="numeric" {...fieldProps(field)} />}
                </form.Field>
                <form.Field name={`items[${i}].price`}>
                  {(field) => <TextField label="Price (₦)" inputMode="decimal" {...fieldProps(field)} />}
                </form.Field>
                {items.state.value.length > 1 ? (
                  <Button
                    variant="ghost"
                    aria-label={`Remove item ${i + 1}`}
                    className={css({ mt: { sm: '6' } })}
                    onClick={() => items.removeValue(i)}
                  >
                    Remove
                  </Button>
                ) : null}
              </div>
            ))}
            <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center' })}>
              <Button variant="outline" size="sm" onClick={() => items.pushValue(emptyVisitItem())}>
                Add item
              </Button>
              {/* An array field redraws when rows come and go; the total follows every keystroke. */}
              <form.Subscribe selector={(state) => visitTotal(state.values.items)}>
                {(total) => (
                  <span className={css({ fontSize: 'sm' })}>
                    Total <strong>{formatNaira(total)}</strong>
                  </span>
                )}
              </form.Subscribe>
            </div>
          </fieldset>
        )}
      </form.Field>

      <TextField
        label="Receipt photo"
        type="file"
        accept="image/*"
        capture="environment"
        helperText={`Take a photo of the receipt (${IMAGE_HELPER_TEXT})`}
        error={receiptError}
        onChange={async (e) => {
          const file = e.target.files?.[0];
          setReceiptError(undefined);
          form.setFieldValue('receiptImage', '');
          if (!file) return;
          const problem = imageFileProblem(file);
          if (problem) setReceiptError(problem);
          else form.setFieldValue('receiptImage', await fileToBase64(file));
        }}
      />

      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending} loadingText="Recording visit">
          Record visit
        </Button>
      </div>
    </AppForm>
  );
}
