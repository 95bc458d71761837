import { defaultValidationLogic, type ValidationLogicFn } from '@tanstack/react-form';

/**
 * Validation on change AND on blur with the one `onChange` validator (its errors are always fresh):
 * a field touched and left empty shows its message at once, and typing clears it.
 */
export const validateOnChangeAndBlur: ValidationLogicFn = (props) =>
  defaultValidationLogic(
    props.event.type === 'blur' ? { ...props, event: { ...props.event, type: 'change' } } : props,
  );

/** TanStack Form field errors may be strings or Standard Schema issues; the UI shows the first message. */
export function firstError(meta: { isTouched: boolean; errors: readonly unknown[] }): string | undefined {
  if (!meta.isTouched) return undefined;
  for (const error of meta.errors) {
    if (typeof error === 'string' && error) return error;
    if (error && typeof error === 'object' && 'message' in error && typeof error.message === 'string') {
      return error.message;
    }
  }
  return undefined;
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
