import { useForm } from '@tanstack/react-form';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Partner } from '../../../../../contract/partners';
import { css } from '../../../../../styled-system/css';
import { partnerKeys } from '../../../../api/partners';
import { saveReviewRules } from '../../../../api/visit-reviews';
import { AppForm } from '../../../../components/app-form';
import { DetailCard, DetailList } from '../../../../components/detail-list';
import { Button } from '../../../../components/ui/button';
import { Checkbox } from '../../../../components/ui/checkbox';
import { Dialog } from '../../../../components/ui/dialog';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { authErrorMessage } from '../../../../lib/error-message';
import { fieldProps, validateOnChangeAndBlur } from '../../../../lib/form';
import { formatNaira } from '../../../../lib/format';
import {
  reviewRulesFormSchema,
  reviewRulesFormValues,
  toReviewRulesBody,
} from '../../../../lib/review-rules-form';
import { useCan } from '../../../../lib/use-can';

const title = css({ fontSize: 'lg', fontWeight: 'semibold' });

/**
 * The partner's visit review rules (issue 35, decision 075): what makes a visit recorded here wait
 * for the club's review. Holders of visits.review edit them.
 */
export function ReviewRulesCard({ partner }: { partner: Partner }) {
  const can = useCan();
  const [editing, setEditing] = useState(false);
  const r = partner.reviewRules;
  return (
    <DetailCard label="Visit review rules">
      <div
        className={css({
          display: 'flex',
          flexWrap: 'wrap',
          gap: '3',
          justifyContent: 'space-between',
          alignItems: 'center',
          mb: '4',
        })}
      >
        <h2 className={title}>Visit review rules</h2>
        {can('visits.review') ? (
          <Button variant="outline" size="sm" onClick={() => setEditing(true)}>
            Edit rules
          </Button>
        ) : null}
      </div>
      <p className={css({ fontSize: 'sm', color: 'fg.muted', mb: '4' })}>
        A visit that breaks a rule, or whose receipt image was sent before, waits for review and counts
        towards eligibility and points only once approved.
      </p>
      <DetailList
        columns={3}
        items={[
          {
            label: 'Review visits above',
            value: r.amountAbove === null ? 'No threshold' : formatNaira(r.amountAbove),
          },
          { label: 'Receipt required', value: r.requireReceipt ? 'Yes' : 'No' },
          {
            label: 'Visits per customer per day',
            value: r.maxVisitsPerDay === null ? 'No limit' : `At most ${r.maxVisitsPerDay}`,
          },
        ]}
      />
      <Dialog open={editing} onOpenChange={(open) => setEditing(open)} title="Edit visit review rules">
        <ReviewRulesForm partner={partner} onDone={() => setEditing(false)} />
      </Dialog>
    </DetailCard>
  );
}

function ReviewRulesForm({ partner, onDone }: { partner: Partner; onDone: () => void }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (body: Parameters<typeof saveReviewRules>[1]) => saveReviewRules(partner.id, body),
    onSuccess: async () => {
      notify.success('Review rules saved');
      onDone();
      await queryClient.invalidateQueries({ queryKey: partnerKeys.detail(partner.id) });
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  const form = useForm({
    defaultValues: reviewRulesFormValues(partner.reviewRules),
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: reviewRulesFormSchema },
    onSubmit: ({ value }) => save.mutateAsync(toReviewRulesBody(value)),
  });
  return (
    <AppForm form={form} className={css({ display: 'grid', gap: '4' })}>
      <form.Field name="amountAbove">
        {(field) => (
          <TextField
            label="Review visits above (₦)"
            inputMode="decimal"
            helperText="Empty: no threshold"
            {...fieldProps(field)}
          />
        )}
      </form.Field>
      <form.Field name="requireReceipt">
        {(field) => (
          <Checkbox
            label="Require a receipt image"
            name={field.name}
            checked={field.state.value}
            onChange={(e) => field.handleChange(e.target.checked)}
            onBlur={field.handleBlur}
          />
        )}
      </form.Field>
      <form.Field name="maxVisitsPerDay">
        {(field) => (
          <TextField
            label="Most visits per customer per day"
            inputMode="numeric"
            helperText="A Lagos day. Empty: no limit"
            {...fieldProps(field)}
          />
        )}
      </form.Field>
      <div className={css({ display: 'flex', justifyContent: 'flex-end', gap: '2', flexWrap: 'wrap' })}>
        <Button type="button" variant="outline" onClick={onDone} disabled={save.isPending}>
          Cancel
        </Button>
        <Button type="submit" loading={save.isPending} loadingText="Saving rules">
          Save rules
        </Button>
      </div>
    </AppForm>
  );
}
