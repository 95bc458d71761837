import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { IMAGE_HELPER_TEXT } from '../../../../../contract/images';
import {
  type CreateVisitBody,
  createVisitBodySchema,
  visitServerMessages,
} from '../../../../../contract/visits';
import { css } from '../../../../../styled-system/css';
import { findVisitCustomers, recordVisit, visitKeys } from '../../../../api/visits';
import { LinkCustomer } from '../../../../components/link-customer';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { errorSentence } from '../../../../lib/error-message';
import { fileToBase64 } from '../../../../lib/form';
import { formatNaira, fullName } from '../../../../lib/format';
import { imageFileProblem } from '../../../../lib/image-file';

interface ItemRow {
  key: number;
  name: string;
  quantity: string;
  price: string;
}
interface Customer {
  id: number;
  firstName: string;
  lastName: string;
  email: string;
}

/** A first visit: the customer is nobody's here yet, so only the whole address finds them (decision 049). */
const VISIT_CUSTOMER_HINT =
  "A first visit? Type the customer's whole email address or member number, then send them a code.";

/** The browser's local date and time as a datetime-local value ('2026-03-14T10:05'). */
const localNow = (now = new Date()) =>
  new Date(now.getTime() - now.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);

let nextKey = 1;
const emptyItem = (): ItemRow => ({ key: nextKey++, name: '', quantity: '1', price: '' });

const grid = css({ display: 'grid', gap: '4', gridTemplateColumns: { base: '1fr', md: '1fr 1fr' } });
const itemRow = css({
  display: 'grid',
  gap: '2',
  alignItems: 'end',
  gridTemplateColumns: { base: '1fr 5rem', sm: '1fr 5rem 8rem auto' },
});

/**
 * Recording a customer's visit at the counter (POST /user/visits): the customer (searched among
 * the partner's customers), the attendant, when, the items bought and a photo of the receipt (the
 * phone's camera opens for it). The total is the server's, from the items.
 */
export function RecordVisitForm({ partnerId, onDone }: { partnerId: number; onDone: () => void }) {
  const { session } = useRouteContext({ from: '__root__' });
  const me = useSelector(session, (s) => s.context.session?.user ?? null);
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [searched, setSearched] = useState<string | null>(null);
  const [found, setFound] = useState<Customer[]>([]);
  const [customer, setCustomer] = useState<Customer | null>(null);
  const [attendant, setAttendant] = useState(fullName(me?.firstName, me?.lastName));
  const [when, setWhen] = useState(localNow);
  const [items, setItems] = useState<ItemRow[]>(() => [emptyItem()]);
  const [receipt, setReceipt] = useState<string | undefined>();
  const [receiptError, setReceiptError] = useState<string | undefined>();
  const [problems, setProblems] = useState<string | null>(null);

  const lookup = useMutation({
    mutationFn: (text: string) => findVisitCustomers({ partnerId, search: text }),
    onSuccess: (customers, text) => {
      setFound(customers);
      setSearched(text);
    },
    onError: (error) => notify.error(errorSentence(error)),
  });
  const save = useMutation({
    mutationFn: (body: CreateVisitBody) => recordVisit(body),
    onSuccess: () => {
      notify.success(visitServerMessages.recorded);
      void queryClient.invalidateQueries({ queryKey: visitKeys.all });
      onDone();
    },
    onError: (error) => notify.error(errorSentence(error)),
  });

  const total = items.reduce((sum, i) => sum + (Number(i.quantity) || 0) * (Number(i.price) || 0), 0);
  const setItem = (key: number, change: Partial<ItemRow>) =>
    setItems((rows) => rows.map((r) => (r.key === key ? { ...r, ...change } : r)));

  const submit = () => {
    const body = {
      partnerId,
      customerId: customer?.id,
      attendantName: attendant,
      visitDate: when ? new Date(when).toISOString() : '',
      items: items.map((i) => ({
        name: i.name,
        quantity: i.quantity.trim() === '' ? Number.NaN : Number(i.quantity),
        price: i.price.trim() === '' ? Number.NaN : Number(i.price),
      })),
      ...(receipt ? { receiptImage: receipt } : {}),
    };
    if (!customer) return setProblems('Choose the customer first.');
    const parsed = createVisitBodySchema.safeParse(body);
    if (!parsed.success) {
      const messages = [...new Set(parsed.error.issues.map((i) => i.message))];
      return setProblems(messages.map((m) => (/[.!?]$/.test(m) ? m : `${m}.`)).join(' '));
    }
    setProblems(null);
    save.mutate(parsed.data);
  };

  return (
    <form
      aria-label="Record a visit"
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
    >
      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' })}>Customer</legend>
        {customer ? (
          <p className={css({ display: 'flex', gap: '3', alignItems: 'center', flexWrap: 'wrap' })}>
            <strong>{fullName(customer.firstName, customer.lastName)}</strong>
            <span className={css({ color: 'fg.muted', fontSize: 'sm' })}>{customer.email}</span>
            <Button size="sm" variant="ghost" onClick={() => setCustomer(null)}>
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
                    if (search.trim()) lookup.mutate(search.trim());
                  }
                }}
              />
              <Button
                variant="outline"
                loading={lookup.isPending}
                loadingText="Finding"
                onClick={() => search.trim() && lookup.mutate(search.trim())}
              >
                Find
              </Button>
            </div>
            {searched !== null && found.length === 0 ? (
              <p role="status" className={css({ fontSize: 'sm', color: 'fg.muted' })}>
                No customer matches '{searched}'
              </p>
            ) : null}
            {searched !== null && found.length === 0 ? (
              <LinkCustomer
                key={searched}
                partnerId={partnerId}
                asked={searched}
                onLinked={(link) => {
                  setCustomer(link.customer);
                  setFound([]);
                  setSearched(null);
                }}
              />
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
                  <Button size="sm" onClick={() => setCustomer(c)}>
                    Choose
                  </Button>
                </li>
              ))}
            </ul>
          </>
        )}
      </fieldset>

      <div className={grid}>
        <TextField label="Attendant" value={attendant} onChange={(e) => setAttendant(e.target.value)} />
        <TextField
          label="Visit date and time"
          type="datetime-local"
          value={when}
          max={localNow()}
          onChange={(e) => setWhen(e.target.value)}
        />
      </div>

      <fieldset className={css({ display: 'flex', flexDirection: 'column', gap: '3' })}>
        <legend className={css({ fontSize: 'sm', fontWeight: 'semibold', mb: '2' })}>Items bought</legend>
        {items.map((row, i) => (
          <div key={row.key} className={itemRow}>
            <TextField
              label={`Item ${i + 1}`}
              value={row.name}
              onChange={(e) => setItem(row.key, { name: e.target.value })}
            />
            <TextField
              label="Qty"
              inputMode="numeric"
              value={row.quantity}
              onChange={(e) => setItem(row.key, { quantity: e.target.value })}
            />
            <TextField
              label="Price (₦)"
              inputMode="decimal"
              value={row.price}
              onChange={(e) => setItem(row.key, { price: e.target.value })}
            />
            {items.length > 1 ? (
              <Button
                variant="ghost"
                aria-label={`Remove item ${i + 1}`}
                onClick={() => setItems((rows) => rows.filter((r) => r.key !== row.key))}
              >
                Remove
              </Button>
            ) : null}
          </div>
        ))}
        <div className={css({ display: 'flex', justifyContent: 'space-between', alignItems: 'center' })}>
          <Button variant="outline" size="sm" onClick={() => setItems((rows) => [...rows, emptyItem()])}>
            Add item
          </Button>
          <span className={css({ fontSize: 'sm' })}>
            Total <strong>{formatNaira(total)}</strong>
          </span>
        </div>
      </fieldset>

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
          setReceipt(undefined);
          if (!file) return;
          const problem = imageFileProblem(file);
          if (problem) setReceiptError(problem);
          else setReceipt(await fileToBase64(file));
        }}
      />

      {problems ? (
        <p role="alert" className={css({ color: 'fg.error', fontSize: 'sm' })}>
          {problems}
        </p>
      ) : null}
      <div className={css({ display: 'flex', gap: '2', justifyContent: 'flex-end' })}>
        <Button variant="outline" onClick={onDone}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending} loadingText="Recording visit">
          Record visit
        </Button>
      </div>
    </form>
  );
}
