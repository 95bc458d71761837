import { useMutation, useQuery } from '@tanstack/react-query';
import { getRouteApi, Link, useNavigate } from '@tanstack/react-router';
import { useId, useState } from 'react';
import {
  IMPORT_FIELDS,
  type ImportDryRun,
  type ImportField,
  type ImportJob,
  type ImportMapping,
  type ImportMappingTarget,
  importFieldOf,
  importMessages,
  REQUIRED_IMPORT_FIELDS,
} from '../../../../../contract/customer-sync';
import { css } from '../../../../../styled-system/css';
import { button } from '../../../../../styled-system/recipes';
import {
  downloadImportRejects,
  dryRunImport,
  importJobQueryOptions,
  startImport,
} from '../../../../api/customer-imports';
import { DetailCard } from '../../../../components/detail-list';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { Button } from '../../../../components/ui/button';
import { notify } from '../../../../components/ui/notify';
import { SelectField } from '../../../../components/ui/select';
import { type CsvHead, readCsvHead } from '../../../../lib/csv-head';
import { errorSentence } from '../../../../lib/error-message';
import { formatCount } from '../../../../lib/format';
import { saveFile } from '../../../../lib/save-file';

const route = getRouteApi('/dashboard/clients/import');

/**
 * /dashboard/clients/import (issue 27): choose a CSV file, see its first rows and how its columns
 * are read (headers matched by name; a choice for each unknown one), a dry run (counts and the
 * first rejects, nothing applied), then the import: its job id goes into the URL (`?job=`), so the
 * progress, the final counts and the rejected rows survive a reload. Only the head of the file is
 * read in the tab (src/lib/csv-head.ts); the upload sends the File itself.
 *
 * Plain component state, not an XState machine (decision 058 would have one for a flow this long):
 * each step is one call held by a TanStack mutation or query, and the job's progress lives on the
 * server and in the URL.
 */
export function ImportCustomersScreen() {
  const { job } = route.useSearch();
  return (
    <PageBody>
      <PageHeader
        title="Clients / Import customers"
        subtitle="Customers from the subscriber system, as a CSV file"
        actions={
          <Link to="/dashboard/clients" className={button({ variant: 'outline' })}>
            Back to clients
          </Link>
        }
      />
      {job ? <ImportProgress id={job} /> : <ChooseFile />}
    </PageBody>
  );
}

const stack = css({ display: 'flex', flexDirection: 'column', gap: '5', minW: '0' });
const heading = css({ textStyle: 'heading', fontSize: 'lg', fontWeight: 'semibold', mb: '3' });
const muted = css({ fontSize: 'sm', color: 'fg.muted' });
const errorText = css({ fontSize: 'sm', color: 'fg.error', fontWeight: 'medium' });
const alertText = css({ fontSize: 'sm', color: 'fg.error', mt: '3' });

const FIELD_LABELS: Record<ImportField, string> = {
  externalId: 'externalId (subscriber number)',
  firstName: 'firstName',
  lastName: 'lastName',
  email: 'email',
  phone: 'phone',
  address: 'address',
  status: 'status',
  internetAccountNumber: 'internetAccountNumber',
};

/** The picked file, its head, and the choice made for each column the import does not know. */
type Picked = { file: File; head: CsvHead; choices: Record<string, ImportMappingTarget | ''> };

/** What each column of the header holds: a field by its name, the person's choice, or nothing yet. */
function columnsOf({ head, choices }: Picked) {
  return head.header.map((name, position) => {
    const known = importFieldOf(name);
    return { key: `${position}:${name}`, name, known, choice: known ? null : (choices[name] ?? '') };
  });
}

/** The mapping sent with the file: the choices for the unknown columns (unchosen ones are ignored). */
function mappingOf(picked: Picked): ImportMapping {
  const mapping: ImportMapping = {};
  for (const c of columnsOf(picked)) if (!c.known && c.name !== '') mapping[c.name] = c.choice || 'ignore';
  return mapping;
}

/** The required fields no column holds. */
function missingOf(picked: Picked): ImportField[] {
  const held = new Set(columnsOf(picked).map((c) => c.known ?? (c.choice === 'ignore' ? '' : c.choice)));
  return REQUIRED_IMPORT_FIELDS.filter((f) => !held.has(f));
}

function ChooseFile() {
  const navigate = useNavigate();
  const inputId = useId();
  const [picked, setPicked] = useState<Picked | null>(null);
  const [readError, setReadError] = useState<string | null>(null);
  const dryRun = useMutation({ mutationFn: (p: Picked) => dryRunImport(p.file, mappingOf(p)) });
  const start = useMutation({
    mutationFn: (p: Picked) => startImport(p.file, mappingOf(p)),
    onSuccess: (job) => void navigate({ to: '/dashboard/clients/import', search: { job: job.id } }),
  });

  const choose = async (file: File | undefined) => {
    dryRun.reset();
    start.reset();
    setPicked(null);
    setReadError(null);
    if (!file) return;
    try {
      const head = await readCsvHead(file);
      if (head.header.length === 0) setReadError(importMessages.empty);
      else if (head.header.join('').includes('\u0000')) setReadError(importMessages.notCsv);
      else setPicked({ file, head, choices: {} });
    } catch (error) {
      setReadError(errorSentence(error));
    }
  };

  const busy = dryRun.isPending || start.isPending;
  const missing = picked ? missingOf(picked) : [];
  const failure = start.error ?? dryRun.error;
  return (
    <div className={stack}>
      <DetailCard label="Choose a file">
        <label htmlFor={inputId} className={heading}>
          CSV file
        </label>
        <input
          id={inputId}
          type="file"
          accept=".csv,text/csv"
          disabled={busy}
          onChange={(e) => void choose(e.currentTarget.files?.[0])}
          className={css({ display: 'block', maxW: 'full', fontSize: 'sm', mt: '2' })}
        />
        <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '3' })}>
          A header row, in any order: {REQUIRED_IMPORT_FIELDS.join(', ')} (required),{' '}
          {IMPORT_FIELDS.filter((f) => !REQUIRED_IMPORT_FIELDS.includes(f)).join(', ')}. UTF-8.
        </p>
        {readError ? (
          <p role="alert" className={alertText}>
            {readError}
          </p>
        ) : null}
      </DetailCard>

      {picked ? (
        <>
          <ColumnMapping
            picked={picked}
            disabled={busy}
            onChoose={(name, target) => {
              dryRun.reset();
              setPicked({ ...picked, choices: { ...picked.choices, [name]: target } });
            }}
          />
          <FirstRows head={picked.head} />
          <DetailCard label="Dry run and import">
            {missing.length ? (
              <p className={errorText}>
                No column holds {missing.join(', ')}: choose one above, or the file will be refused.
              </p>
            ) : null}
            <div
              className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', mt: missing.length ? '3' : '0' })}
            >
              <Button
                variant="outline"
                loading={dryRun.isPending}
                loadingText="Running a dry run"
                disabled={start.isPending}
                onClick={() => dryRun.mutate(picked)}
              >
                Dry run
              </Button>
              <Button
                loading={start.isPending}
                loadingText="Sending the file"
                disabled={dryRun.isPending}
                onClick={() => start.mutate(picked)}
              >
                Import
              </Button>
            </div>
            {failure ? (
              <p role="alert" className={alertText}>
                {errorSentence(failure)}
              </p>
            ) : null}
          </DetailCard>
          {dryRun.data ? <DryRunResult result={dryRun.data} /> : null}
        </>
      ) : null}
    </div>
  );
}

function ColumnMapping({
  picked,
  disabled,
  onChoose,
}: {
  picked: Picked;
  disabled: boolean;
  onChoose: (name: string, target: ImportMappingTarget | '') => void;
}) {
  const columns = columnsOf(picked);
  const used = new Set(
    columns.flatMap((c) => (c.known ? [c.known] : c.choice && c.choice !== 'ignore' ? [c.choice] : [])),
  );
  return (
    <DetailCard label="Columns">
      <h2 className={heading}>Columns</h2>
      <p className={muted}>Columns are matched by their name. Choose what each other column holds.</p>
      <ul className={css({ display: 'flex', flexDirection: 'column', gap: '3', mt: '4' })}>
        {columns.map((c) =>
          c.known ? (
            <li key={c.key} className={css({ fontSize: 'sm', wordBreak: 'break-word' })}>
              <strong>{c.name}</strong> <span className={muted}>is {FIELD_LABELS[c.known]}</span>
            </li>
          ) : (
            <li key={c.key} className={css({ maxW: 'md' })}>
              <SelectField
                label={`Column “${c.name}”`}
                value={c.choice ?? ''}
                disabled={disabled}
                placeholder="Ignore this column"
                onChange={(e) => onChoose(c.name, e.currentTarget.value as ImportMappingTarget | '')}
                options={IMPORT_FIELDS.filter((f) => f === c.choice || !used.has(f)).map((f) => ({
                  value: f,
                  label: FIELD_LABELS[f],
                }))}
              />
            </li>
          ),
        )}
      </ul>
    </DetailCard>
  );
}

const cell = css({
  px: '3',
  py: '2',
  textAlign: 'left',
  whiteSpace: 'nowrap',
  borderBottomWidth: '1px',
  borderColor: 'border.default',
  maxW: '60',
  overflow: 'hidden',
  textOverflow: 'ellipsis',
});

/** The first rows as the file has them (the table scrolls inside its card on a narrow screen). */
function FirstRows({ head }: { head: CsvHead }) {
  const columns = head.header.map((name, position) => ({ key: `${position}:${name}`, name, position }));
  const rows = head.rows.map((cells, n) => ({ key: n, cells }));
  return (
    <DetailCard label="First rows">
      <h2 className={heading}>First rows</h2>
      {head.rows.length === 0 ? (
        <p className={muted}>{importMessages.noRows}</p>
      ) : (
        <div className={css({ overflowX: 'auto', maxW: 'full' })}>
          <table
            aria-label="First rows of the file"
            className={css({ fontSize: 'sm', borderCollapse: 'collapse' })}
          >
            <thead>
              <tr>
                {columns.map((c) => (
                  <th key={c.key} scope="col" className={cell}>
                    {c.name}
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {rows.map((row) => (
                <tr key={row.key}>
                  {columns.map((c) => (
                    <td key={c.key} className={cell}>
                      {row.cells[c.position] ?? ''}
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </DetailCard>
  );
}

type Counts = Pick<ImportJob, 'created' | 'updated' | 'unchanged' | 'rejected'>;

function CountList({ label, counts }: { label: string; counts: Counts }) {
  const items: [string, number][] = [
    ['Created', counts.created],
    ['Updated', counts.updated],
    ['Unchanged', counts.unchanged],
    ['Rejected', counts.rejected],
  ];
  return (
    <dl
      aria-label={label}
      className={css({
        display: 'grid',
        gridTemplateColumns: { base: 'repeat(2, 1fr)', md: 'repeat(4, 1fr)' },
        gap: '4',
      })}
    >
      {items.map(([name, value]) => (
        <div key={name} className={css({ display: 'flex', flexDirection: 'column', gap: '1' })}>
          <dt className={css({ textStyle: 'caption', color: 'fg.muted' })}>{name}</dt>
          <dd className={css({ fontSize: 'xl', fontWeight: 'semibold' })}>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

function DryRunResult({ result }: { result: ImportDryRun }) {
  return (
    <DetailCard label="Dry run">
      <h2 className={heading}>Dry run: nothing was changed</h2>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
        Of {formatCount(result.rowsRead)} rows, the import would:
      </p>
      <CountList label="Dry run counts" counts={result} />
      {result.rejects.length ? (
        <>
          <h3 className={css({ fontSize: 'sm', fontWeight: 'semibold', mt: '5', mb: '2' })}>
            {result.rejected > result.rejects.length
              ? `The first ${result.rejects.length} rejected rows`
              : 'Rejected rows'}
          </h3>
          <ul
            aria-label="Rejected rows"
            className={css({ display: 'flex', flexDirection: 'column', gap: '2' })}
          >
            {result.rejects.map((r) => (
              <li key={r.row} className={css({ fontSize: 'sm', wordBreak: 'break-word' })}>
                <strong>Row {r.row}</strong>
                {r.externalId ? ` (${r.externalId})` : ''}: {r.reason}
              </li>
            ))}
          </ul>
        </>
      ) : null}
    </DetailCard>
  );
}

const STATE_WORDS: Record<ImportJob['state'], string> = {
  receiving: 'Receiving the file',
  queued: 'Waiting to start',
  running: 'Importing',
  done: 'Import finished',
  failed: 'Import failed',
};

/** The job's progress (polled every second until it ends), then its counts and rejected rows. */
function ImportProgress({ id }: { id: number }) {
  const job = useQuery(importJobQueryOptions(id));
  const download = useMutation({
    mutationFn: () => downloadImportRejects(id),
    onSuccess: ({ blob, filename }) => saveFile(blob, filename),
    onError: (error) => notify.error(`Download failed: ${errorSentence(error)}`),
  });
  if (job.isPending) return <p className={muted}>Loading the import…</p>;
  if (job.isError)
    return (
      <p role="alert" className={errorText}>
        {errorSentence(job.error)}
      </p>
    );
  const data = job.data;
  const done = data.state === 'done';
  const total = Math.max(data.rowsRead, 1);
  const percent = done ? 100 : Math.min(100, Math.round((data.rowsDone / total) * 100));
  return (
    <DetailCard label="Import">
      <h2 className={heading}>
        {STATE_WORDS[data.state]}: <span className={css({ wordBreak: 'break-all' })}>{data.fileName}</span>
      </h2>
      <div
        role="progressbar"
        aria-label="Import progress"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
        className={css({ h: '3', bg: 'brand.100', rounded: 'full', overflow: 'hidden', mt: '2' })}
      >
        <span
          className={css({ display: 'block', h: 'full', bg: 'brand.600', transition: 'width 0.3s' })}
          style={{ width: `${percent}%` }}
        />
      </div>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mt: '2', mb: '5' })}>
        {formatCount(done ? data.rowsRead : data.rowsDone)} of {formatCount(data.rowsRead)} rows
      </p>
      <CountList label="Import counts" counts={data} />
      {data.state === 'failed' && data.error ? (
        <p role="alert" className={alertText}>
          {data.error}
        </p>
      ) : null}
      <div className={css({ display: 'flex', flexWrap: 'wrap', gap: '3', mt: '5' })}>
        {done && data.rejected > 0 ? (
          <Button
            variant="outline"
            loading={download.isPending}
            loadingText="Downloading"
            onClick={() => download.mutate()}
          >
            Download rejected rows
          </Button>
        ) : null}
        {done || data.state === 'failed' ? (
          <Link to="/dashboard/clients/import" search={{}} className={button({ variant: 'outline' })}>
            Import another file
          </Link>
        ) : null}
      </div>
    </DetailCard>
  );
}
