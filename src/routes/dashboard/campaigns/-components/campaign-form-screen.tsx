import { useForm } from '@tanstack/react-form';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate, useRouteContext } from '@tanstack/react-router';
import { useSelector } from '@xstate/react';
import { useState } from 'react';
import { campaignMessages } from '../../../../../contract/campaigns';
import { IMAGE_HELPER_TEXT } from '../../../../../contract/images';
import { css } from '../../../../../styled-system/css';
import { campaignKeys, createCampaign } from '../../../../api/campaigns';
import { partnerChoicesQueryOptions } from '../../../../api/partners';
import { rewardTypeCategoriesQueryOptions, rewardTypesQueryOptions } from '../../../../api/rewards';
import { AppForm } from '../../../../components/app-form';
import { FormCard, formActions, formGrid } from '../../../../components/form-card';
import { PageBody, PageHeader } from '../../../../components/page-header';
import { CATEGORY_LABELS, optionsFrom, TYPE_LABELS } from '../../../../components/rewards/issue-reward-form';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { notify } from '../../../../components/ui/notify';
import { SelectField } from '../../../../components/ui/select';
import { errorText } from '../../../../lib/error-message';
import { fieldProps, fileToBase64, firstError, validateOnChangeAndBlur } from '../../../../lib/form';
import { IMAGE_ACCEPT, imageFileProblem } from '../../../../lib/image-file';
import {
  type CampaignFormValues,
  initialCampaignValues,
  toCampaignBody,
  validateCampaignValues,
} from '../../../../machines/campaign-form';

const SEGMENT_OPTIONS = [
  { value: 'eligible', label: "The partner's eligible customers today" },
  { value: 'filter', label: 'Customers matching a filter' },
  { value: 'list', label: 'A list of customers' },
];
const STATUS_OPTIONS = [
  { value: 'ACTIVE', label: 'Active' },
  { value: 'BLOCKED', label: 'Blocked' },
];
const section = css({ display: 'flex', flexDirection: 'column', gap: '4' });
const group = css({ display: 'flex', flexDirection: 'column', gap: '4', mt: '6' });
const legend = css({ fontSize: 'md', fontWeight: 'semibold', color: 'fg.default', mb: '1' });
const note = css({ fontSize: 'sm', color: 'fg.muted' });

/** A select's props from a field whose value is one of a few strings (fieldProps takes any string). */
function choiceProps<V extends string>(field: {
  name: string;
  state: { value: V; meta: { isBlurred: boolean; errors: readonly unknown[] } };
  handleChange: (value: V) => void;
  handleBlur: () => void;
}) {
  return {
    name: field.name,
    value: field.state.value,
    onBlur: field.handleBlur,
    error: firstError(field.state.meta),
    onChange: (event: { target: { value: string } }) => field.handleChange(event.target.value as V),
  };
}

/** A form-level validator: each rule's message on its field (validateCampaignValues). */
const validate = ({ value }: { value: CampaignFormValues }) => {
  const fields = validateCampaignValues(value);
  return Object.keys(fields).length > 0 ? { fields } : undefined;
};

function BackToList() {
  const navigate = useNavigate();
  return (
    <Button variant="outline" onClick={() => void navigate({ to: '/dashboard/campaigns' })}>
      Back
    </Button>
  );
}

/**
 * /dashboard/campaigns/new: the campaign's name, partner (partner staff: their own), reward template
 * and segment. Saved as a draft; its page then shows the preview and Submit.
 */
export function NewCampaignScreen() {
  const { session } = useRouteContext({ from: '__root__' });
  const ownPartner = useSelector(session, (s) => s.context.session?.user.partnerId ?? null);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: createCampaign,
    onSuccess: (campaign) => {
      notify.success(campaignMessages.created);
      void queryClient.invalidateQueries({ queryKey: campaignKeys.lists() });
      queryClient.setQueryData(campaignKeys.detail(campaign.id), campaign);
      void navigate({ to: '/dashboard/campaigns/$campaignId', params: { campaignId: campaign.id } });
    },
    onError: (e) => notify.error(errorText(e)),
  });
  const form = useForm({
    defaultValues: initialCampaignValues(ownPartner === null ? '' : String(ownPartner)),
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: validate },
    onSubmit: ({ value }) => save.mutateAsync(toCampaignBody(value)),
  });
  const partners = useQuery({ ...partnerChoicesQueryOptions(), enabled: ownPartner === null });
  const types = useQuery({ ...rewardTypesQueryOptions(), retry: false });
  const categories = useQuery({ ...rewardTypeCategoriesQueryOptions(), retry: false });
  const [imageError, setImageError] = useState<string | undefined>();
  const segmentFields = (kind: CampaignFormValues['segmentKind']) => {
    if (kind === 'filter')
      return (
        <>
          <form.Field name="status">
            {(field) => (
              <SelectField
                label="Account status"
                placeholder="Any status"
                options={STATUS_OPTIONS}
                {...choiceProps(field)}
              />
            )}
          </form.Field>
          <div className={formGrid}>
            <form.Field name="visitedFrom">
              {(field) => <TextField label="Visited from (optional)" type="date" {...fieldProps(field)} />}
            </form.Field>
            <form.Field name="visitedTo">
              {(field) => <TextField label="Visited to (optional)" type="date" {...fieldProps(field)} />}
            </form.Field>
          </div>
          <p className={note}>
            With dates: customers with a visit at the partner in that period. Without: every customer linked
            to the partner.
          </p>
        </>
      );
    if (kind === 'list')
      return (
        <>
          <form.Field name="customerIds">
            {(field) => (
              <TextField label="Customer ids" multiline helperText="One a line" {...fieldProps(field)} />
            )}
          </form.Field>
          <form.Field name="emails">
            {(field) => <TextField label="Emails" multiline helperText="One a line" {...fieldProps(field)} />}
          </form.Field>
          <form.Field name="externalIds">
            {(field) => (
              <TextField
                label="External ids"
                multiline
                helperText="The subscriber system's ids, one a line"
                {...fieldProps(field)}
              />
            )}
          </form.Field>
        </>
      );
    return (
      <p className={note}>
        Customers whose spend at the partner in the last 30 days reaches its minimum, on the day of the
        preview.
      </p>
    );
  };

  return (
    <PageBody>
      <PageHeader
        title="New campaign"
        subtitle="Saved as a draft: you see who it reaches before anything is issued."
        actions={<BackToList />}
      />
      <FormCard label="New campaign">
        <AppForm form={form} aria-label="New campaign">
          <div className={section}>
            <form.Field name="name">
              {(field) => <TextField label="Name" autoComplete="off" {...fieldProps(field)} />}
            </form.Field>
            {ownPartner === null ? (
              <form.Field name="partnerId">
                {(field) => (
                  <SelectField
                    label="Partner"
                    placeholder="Choose a partner"
                    options={partners.data ?? []}
                    {...fieldProps(field)}
                  />
                )}
              </form.Field>
            ) : null}
          </div>

          <fieldset className={group}>
            <legend className={legend}>Reward</legend>
            <div className={formGrid}>
              <form.Field name="rewardType">
                {(field) => (
                  <SelectField
                    label="Reward type"
                    placeholder="Choose a reward type"
                    options={optionsFrom(TYPE_LABELS, types.data)}
                    {...choiceProps(field)}
                  />
                )}
              </form.Field>
              <form.Field name="rewardTypeCategory">
                {(field) => (
                  <SelectField
                    label="Reward category (optional)"
                    placeholder="No category"
                    options={optionsFrom(CATEGORY_LABELS, categories.data)}
                    {...choiceProps(field)}
                  />
                )}
              </form.Field>
            </div>
            <form.Subscribe selector={(s) => s.values.rewardType}>
              {(rewardType) =>
                rewardType === 'GIFTCARD' ? (
                  <form.Field name="issuedAmount">
                    {(field) => (
                      <TextField label="Issued amount (₦)" inputMode="decimal" {...fieldProps(field)} />
                    )}
                  </form.Field>
                ) : rewardType === 'COUPON' ? (
                  <form.Field name="percentageDiscount">
                    {(field) => (
                      <TextField label="Percentage discount (%)" inputMode="decimal" {...fieldProps(field)} />
                    )}
                  </form.Field>
                ) : null
              }
            </form.Subscribe>
            <form.Field name="title">
              {(field) => <TextField label="Title" {...fieldProps(field)} />}
            </form.Field>
            <form.Field name="description">
              {(field) => <TextField label="Description" multiline {...fieldProps(field)} />}
            </form.Field>
            <form.Field name="expiryDate">
              {(field) => <TextField label="Expiry date (optional)" type="date" {...fieldProps(field)} />}
            </form.Field>
            <form.Field name="promotionalImage">
              {(field) => (
                <TextField
                  label="Promotional image (optional)"
                  type="file"
                  accept={IMAGE_ACCEPT}
                  helperText={IMAGE_HELPER_TEXT}
                  error={imageError}
                  onChange={async (e) => {
                    const file = e.target.files?.[0];
                    const problem = file ? imageFileProblem(file) : null;
                    setImageError(problem ?? undefined);
                    field.handleChange(!file || problem ? '' : await fileToBase64(file));
                  }}
                />
              )}
            </form.Field>
          </fieldset>

          <fieldset className={group}>
            <legend className={legend}>Customers</legend>
            <form.Field name="segmentKind">
              {(field) => <SelectField label="Segment" options={SEGMENT_OPTIONS} {...choiceProps(field)} />}
            </form.Field>
            <form.Subscribe selector={(s) => s.values.segmentKind}>
              {(kind) => segmentFields(kind)}
            </form.Subscribe>
            <p className={note}>
              Only customers linked to the partner receive the reward; the preview names the others and why.
            </p>
          </fieldset>

          <div className={formActions}>
            <Button type="submit" loading={save.isPending} loadingText="Saving draft">
              Save draft
            </Button>
          </div>
        </AppForm>
      </FormCard>
    </PageBody>
  );
}
