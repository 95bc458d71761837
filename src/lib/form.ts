import { type AnyFormApi, defaultValidationLogic, type ValidationLogicFn } from '@tanstack/react-form';
import { fieldErrorsOf } from './error-message';

/**
 * Validation on change AND on blur with the one `onChange` validator (its errors are always fresh):
 * a field left empty shows its message at once, and typing clears it.
 */
export const validateOnChangeAndBlur: ValidationLogicFn = (props) =>
  defaultValidationLogic(
    props.event.type === 'blur' ? { ...props, event: { ...props.event, type: 'change' } } : props,
  );

/**
 * The message shown under a field: its first error, once the field was left (blurred) or the form
 * submitted (`AppForm` marks every field left), never while the first characters of an untouched
 * field are typed (docs/product.md#validation: 'only after it was touched'; issue 22 point 5). TanStack Form
 * errors may be strings or Standard Schema issues.
 */
export function firstError(meta: { isBlurred: boolean; errors: readonly unknown[] }): string | undefined {
  if (!meta.isBlurred) return undefined;
  for (const error of meta.errors) {
    if (typeof error === 'string' && error) return error;
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
      return error.message;
    }
  }
  return undefined;
}

/** The props every text input or select of a form takes from its TanStack field. */
export function fieldProps(field: {
  name: string;
  state: { value: string; meta: { isBlurred: boolean; errors: readonly unknown[] } };
  handleChange: (value: string) => void;
  handleBlur: () => void;
}) {
  return {
    name: field.name,
    value: field.state.value,
    onChange: (event: { target: { value: string } }) => field.handleChange(event.target.value),
    onBlur: field.handleBlur,
    error: firstError(field.state.meta),
  };
}

/** Every mounted field counts as left (on submit): their errors show. */
export function markFieldsLeft(form: AnyFormApi): void {
  for (const name of Object.keys(form.fieldInfo)) {
    if (!form.getFieldMeta(name)?.isBlurred)
      form.setFieldMeta(name, (meta) => ({ ...meta, isBlurred: true }));
  }
}

/**
 * The form's field a server error names: the server's path ('items.1.price') as TanStack Form names
 * the field ('items[1].price') when the form has it, else the path's first segment (a list field
 * such as 'extendedServiceIds.0' is one field in the form).
 */
export function formFieldOf(form: AnyFormApi, fieldName: string): string | undefined {
  const indexed = fieldName.replace(/\.(\d+)(?=\.|$)/g, '[$1]');
  if (indexed in form.fieldInfo) return indexed;
  const first = fieldName.split('.')[0] ?? fieldName;
  return first in form.fieldInfo ? first : undefined;
}

/**
 * The server's answer about fields (the envelope's `errors`) put on those fields (`formFieldOf`) as
 * their error, shown at once; the next change of the field, or the next submit, clears it. Returns
 * how many were placed.
 */
export function placeServerErrors(form: AnyFormApi, error: unknown): number {
  let placed = 0;
  for (const { fieldName, message } of fieldErrorsOf(error)) {
    const name = formFieldOf(form, fieldName);
    if (name === undefined) continue;
    placed += 1;
    form.setFieldMeta(name, (meta) => ({
      ...meta,
      isTouched: true,
      isBlurred: true,
      errorMap: { ...meta.errorMap, onSubmit: message },
    }));
  }
  return placed;
}

/** Reads an image file as base64 without the data-URL prefix (what the API expects). */
export function fileToBase64(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => {
      const result = String(reader.result ?? '');
      resolve(result.slice(result.indexOf(',') + 1));
    };
    reader.onerror = () => reject(reader.error ?? new Error('Could not read the file'));
    reader.readAsDataURL(file);
  });
}
