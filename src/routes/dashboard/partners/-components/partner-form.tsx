import { useForm } from '@tanstack/react-form';
import { useQuery } from '@tanstack/react-query';
import { useId } from 'react';
import type { z } from 'zod';
import { IMAGE_HELPER_TEXT } from '../../../../../contract/images';
import { MIN_SPEND_MINIMUM } from '../../../../../contract/partners';
import { css } from '../../../../../styled-system/css';
import { extendedServiceChoicesQueryOptions } from '../../../../api/extended-services';
import { AppForm } from '../../../../components/app-form';
import { FormCard, formActions, formGrid } from '../../../../components/form-card';
import { QueryErrorText } from '../../../../components/query-error-text';
import { Button } from '../../../../components/ui/button';
import { Checkbox } from '../../../../components/ui/checkbox';
import { TextField } from '../../../../components/ui/field';
import { Spinner } from '../../../../components/ui/spinner';
import { fieldProps, firstError, validateOnChangeAndBlur } from '../../../../lib/form';
import { IMAGE_ACCEPT } from '../../../../lib/image-file';
import type { PartnerFormValues } from '../../../../lib/partner-form';

type TextKey = 'firstName' | 'lastName' | 'email' | 'phone' | 'organizationName' | 'address';

const TEXT_FIELDS: { name: TextKey; label: string; type?: string; inputMode?: 'tel' }[] = [
  { name: 'firstName', label: 'First Name' },
  { name: 'lastName', label: 'Last Name' },
  { name: 'email', label: 'Email', type: 'email' },
  { name: 'phone', label: 'Phone', type: 'tel', inputMode: 'tel' },
  { name: 'organizationName', label: 'Organization Name' },
  { name: 'address', label: 'Address' },
];

export interface PartnerFormProps {
  mode: 'add' | 'edit';
  defaultValues: PartnerFormValues;
  schema: z.core.$ZodType<unknown, PartnerFormValues>;
  pending: boolean;
  /** Returns the save's promise: the form sends once until it settles. */
  onSubmit: (values: PartnerFormValues) => Promise<unknown>;
}

/**
 * The partner form of the add and edit screens: names, email (add only), phone, organization,
 * address, cover image, minimum spend to qualify and the extended services (at least one).
 */
export function PartnerForm({ mode, defaultValues, schema, pending, onSubmit }: PartnerFormProps) {
  const services = useQuery(extendedServiceChoicesQueryOptions());
  const servicesErrorId = useId();
  const form = useForm({
    defaultValues,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: schema },
    onSubmit: ({ value }) => onSubmit(value),
  });

  return (
    <FormCard label={mode === 'add' ? 'Add partner' : 'Edit partner'}>
      <AppForm form={form}>
        <div className={formGrid}>
          {TEXT_FIELDS.filter((f) => mode === 'add' || f.name !== 'email').map(
            ({ name, label, type, inputMode }) => (
              <form.Field key={name} name={name}>
                {(field) => (
                  <TextField
                    label={label}
                    type={type ?? 'text'}
                    {...(inputMode ? { inputMode } : {})}
                    autoComplete="off"
                    {...fieldProps(field)}
                  />
                )}
              </form.Field>
            ),
          )}
          <form.Field name="minSpendToQualify">
            {(field) => (
              <TextField
                label="Minimum Spend To Qualify"
                type="number"
                inputMode="numeric"
                min={MIN_SPEND_MINIMUM}
                step={100}
                {...fieldProps(field)}
                helperText={mode === 'edit' ? 'Leave blank to keep the current amount' : 'At least ₦2,000'}
              />
            )}
          </form.Field>
          <form.Field name="coverImage">
            {(field) => (
              <TextField
                label="Cover Image"
                name={field.name}
                type="file"
                accept={IMAGE_ACCEPT}
                onChange={(e) => field.handleChange(e.target.files?.[0] ?? null)}
                onBlur={field.handleBlur}
                error={firstError(field.state.meta)}
                helperText={
                  mode === 'edit'
                    ? `Choose an image only to replace the current one (${IMAGE_HELPER_TEXT})`
                    : IMAGE_HELPER_TEXT
                }
              />
            )}
          </form.Field>
        </div>
        <form.Field name="extendedServiceIds">
          {(field) => {
            const error = firstError(field.state.meta);
            const selected = new Set(field.state.value);
            return (
              <fieldset
                aria-describedby={error ? servicesErrorId : undefined}
                aria-invalid={error ? true : undefined}
                className={css({ mt: '5', display: 'flex', flexDirection: 'column', gap: '2' })}
              >
                <legend className={css({ fontSize: 'sm', fontWeight: 'medium', mb: '2' })}>
                  Extended Services
                </legend>
                {services.isPending ? (
                  <Spinner label="Loading extended services" className={css({ color: 'brand.700' })} />
                ) : services.error ? (
                  <QueryErrorText error={services.error} look="small" />
                ) : services.data.length === 0 ? (
                  <p className={css({ fontSize: 'sm', color: 'fg.muted' })}>No extended services yet.</p>
                ) : (
                  <div
                    className={css({
                      display: 'grid',
                      gridTemplateColumns: { base: '1fr', md: 'repeat(2, minmax(0, 1fr))' },
                      gap: '2',
                    })}
                  >
                    {services.data.map((service) => (
                      <Checkbox
                        key={service.id}
                        label={service.title}
                        name="extendedServiceIds"
                        value={String(service.id)}
                        checked={selected.has(service.id)}
                        onChange={(e) => {
                          const next = e.target.checked
                            ? [...field.state.value, service.id]
                            : field.state.value.filter((id) => id !== service.id);
                          field.handleChange(next);
                        }}
                        onBlur={field.handleBlur}
                      />
                    ))}
                  </div>
                )}
                {error ? (
                  <p id={servicesErrorId} className={css({ fontSize: 'xs', color: 'fg.error' })}>
                    {error}
                  </p>
                ) : null}
              </fieldset>
            );
          }}
        </form.Field>
        <div className={formActions}>
          <Button type="submit" loading={pending} loadingText="Saving partner">
            Submit
          </Button>
        </div>
      </AppForm>
    </FormCard>
  );
}
