import { useForm } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  type ApprovalSettings,
  DEFAULT_APPROVAL_EXPIRY_DAYS,
  MAX_APPROVAL_EXPIRY_DAYS,
} from '../../../../../contract/campaigns';
import { z } from '../../../../../contract/zod';
import { css } from '../../../../../styled-system/css';
import { approvalKeys, approvalSettingsQueryOptions, saveApprovalSettings } from '../../../../api/approvals';
import { AppForm } from '../../../../components/app-form';
import { FormCard, formActions } from '../../../../components/form-card';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { QueryBody } from '../../../../components/query-body';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { authErrorMessage } from '../../../../lib/error-message';
import { fieldProps, validateOnChangeAndBlur } from '../../../../lib/form';

/** The form's text values: an empty threshold means none. */
type Values = { campaignTotalAbove: string; singleRewardAbove: string; approvalExpiryDays: string };

const amount = (label: string) =>
  z.string().check(
    z.refine((v) => v.trim() === '' || (Number.isFinite(Number(v)) && Number(v) > 0), {
      error: `${label} must be a positive amount, or empty for none`,
    }),
    z.refine((v) => v.trim() === '' || /^\d+(\.\d{1,2})?$/.test(v.trim()), {
      error: 'Amount can have at most 2 decimals',
    }),
  );

const schema = z.object({
  campaignTotalAbove: amount('Campaign total'),
  singleRewardAbove: amount('Single reward'),
  approvalExpiryDays: z.string().check(
    z.refine((v) => /^\d+$/.test(v.trim()) && Number(v) >= 1 && Number(v) <= MAX_APPROVAL_EXPIRY_DAYS, {
      error: `Days must be a whole number from 1 to ${MAX_APPROVAL_EXPIRY_DAYS}`,
    }),
  ),
});

const toText = (v: number | null) => (v === null ? '' : String(v));
const valuesOf = (s: ApprovalSettings): Values => ({
  campaignTotalAbove: toText(s.campaignTotalAbove),
  singleRewardAbove: toText(s.singleRewardAbove),
  approvalExpiryDays: String(s.approvalExpiryDays ?? DEFAULT_APPROVAL_EXPIRY_DAYS),
});
const toAmount = (v: string) => (v.trim() === '' ? null : Number(v.trim()));

/**
 * /dashboard/settings/approvals (the Super Admin, issue 35, decision 074): the four-eyes thresholds in
 * naira (empty: none) and the days a request waits before it expires.
 */
export function ApprovalSettingsScreen() {
  const settings = useQuery(approvalSettingsQueryOptions());
  return (
    <PageBody>
      <PageHeader
        title="Approval settings"
        subtitle="Above these amounts a second person allowed to approve rewards must approve, on the Approvals screen, before anything is issued."
      />
      <QueryBody query={settings} loadingLabel="Loading approval settings">
        {(data) => <SettingsForm settings={data} />}
      </QueryBody>
    </PageBody>
  );
}

function SettingsForm({ settings }: { settings: ApprovalSettings }) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (v: Values) =>
      saveApprovalSettings({
        campaignTotalAbove: toAmount(v.campaignTotalAbove),
        singleRewardAbove: toAmount(v.singleRewardAbove),
        approvalExpiryDays: Number(v.approvalExpiryDays.trim()),
      }),
    onSuccess: (result) => {
      notify.success(result.message);
      queryClient.setQueryData(approvalKeys.settings, result.data);
    },
    onError: (e) => notify.error(authErrorMessage(e)),
  });
  const form = useForm({
    defaultValues: valuesOf(settings),
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: schema },
    onSubmit: ({ value }) => save.mutateAsync(value),
  });
  return (
    <FormCard label="Approval settings">
      <AppForm form={form}>
        <div className={css({ display: 'flex', flexDirection: 'column', gap: '4' })}>
          <form.Field name="campaignTotalAbove">
            {(field) => (
              <TextField
                label="Campaign total above (₦)"
                inputMode="decimal"
                helperText="A campaign whose rewards together are worth more waits for approval. Empty: none."
                {...fieldProps(field)}
              />
            )}
          </form.Field>
          <form.Field name="singleRewardAbove">
            {(field) => (
              <TextField
                label="Single reward above (₦)"
                inputMode="decimal"
                helperText="A gift card worth more, issued alone or in a campaign, waits for approval. Empty: none."
                {...fieldProps(field)}
              />
            )}
          </form.Field>
          <form.Field name="approvalExpiryDays">
            {(field) => (
              <TextField
                label="Requests expire after (days)"
                inputMode="numeric"
                helperText="A request nobody decides in this many days expires; nothing is issued."
                {...fieldProps(field)}
              />
            )}
          </form.Field>
        </div>
        <div className={formActions}>
          <Button type="submit" loading={save.isPending} loadingText="Saving settings">
            Save
          </Button>
        </div>
      </AppForm>
    </FormCard>
  );
}
