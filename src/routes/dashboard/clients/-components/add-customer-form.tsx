import { useForm } from '@tanstack/react-form';
import { css } from '../../../../../styled-system/css';
import { AppForm } from '../../../../components/app-form';
import { FormCard, formActions, formGrid } from '../../../../components/form-card';
import { Button } from '../../../../components/ui/button';
import { TextField } from '../../../../components/ui/field';
import { SelectField } from '../../../../components/ui/select';
import {
  type AddCustomerFormValues,
  addCustomerFormSchema,
  emptyAddCustomerForm,
} from '../../../../lib/add-customer-form';
import { fieldProps, firstError, validateOnChangeAndBlur } from '../../../../lib/form';

const STATUS_OPTIONS = [
  { value: 'ACTIVE', label: 'Active' },
  { value: 'BLOCKED', label: 'Blocked' },
] as const;

const wide = css({ gridColumn: { md: 'span 2' } });

type TextName = Exclude<keyof AddCustomerFormValues, 'status'>;

const TEXT_FIELDS: readonly {
  name: TextName;
  label: string;
  type?: 'email' | 'tel';
  inputMode?: 'email' | 'tel';
  autoComplete: string;
  helperText?: string;
  wide?: true;
}[] = [
  {
    name: 'externalId',
    label: 'External ID',
    autoComplete: 'off',
    helperText: "The subscriber or account number in the provider's system",
  },
  { name: 'internetAccountNumber', label: 'Internet Account Number', autoComplete: 'off' },
  { name: 'firstName', label: 'First Name', autoComplete: 'off' },
  { name: 'lastName', label: 'Last Name', autoComplete: 'off' },
  { name: 'email', label: 'Email', type: 'email', inputMode: 'email', autoComplete: 'off' },
  { name: 'phone', label: 'Phone', type: 'tel', inputMode: 'tel', autoComplete: 'off' },
  { name: 'address', label: 'Address', autoComplete: 'off', wide: true },
];

/**
 * The Add customer form (decision 058, rule 2: one call, so TanStack Form under `AppForm`): the
 * contract's rules on every field, the server's field errors (a taken external id or email) on
 * their fields. `onSubmit` returns the call's promise.
 */
export function AddCustomerForm({
  pending,
  onSubmit,
}: {
  pending: boolean;
  onSubmit: (values: AddCustomerFormValues) => Promise<unknown>;
}) {
  const form = useForm({
    defaultValues: emptyAddCustomerForm,
    validationLogic: validateOnChangeAndBlur,
    validators: { onChange: addCustomerFormSchema },
    onSubmit: ({ value }) => onSubmit(value),
  });
  return (
    <FormCard label="Add customer">
      <AppForm form={form}>
        <div className={formGrid}>
          {TEXT_FIELDS.map(({ name, label, type, inputMode, autoComplete, helperText, wide: isWide }) => (
            <form.Field key={name} name={name}>
              {(field) => (
                <div className={isWide ? wide : undefined}>
                  <TextField
                    label={label}
                    type={type ?? 'text'}
                    autoComplete={autoComplete}
                    {...(inputMode ? { inputMode } : {})}
                    {...(helperText ? { helperText } : {})}
                    {...fieldProps(field)}
                  />
                </div>
              )}
            </form.Field>
          ))}
          <form.Field name="status">
            {(field) => (
              <SelectField
                label="Status"
                name={field.name}
                options={STATUS_OPTIONS}
                value={field.state.value}
                onChange={(event) =>
                  field.handleChange(event.target.value === 'BLOCKED' ? 'BLOCKED' : 'ACTIVE')
                }
                onBlur={field.handleBlur}
                error={firstError(field.state.meta)}
              />
            )}
          </form.Field>
        </div>
        <div className={formActions}>
          <Button type="submit" loading={pending} loadingText="Adding customer">
            Add customer
          </Button>
        </div>
      </AppForm>
    </FormCard>
  );
}
