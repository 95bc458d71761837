import type { AnyFormApi } from '@tanstack/react-form';
import { type ComponentProps, type FormEvent, useRef } from 'react';
import { markFieldsLeft, placeServerErrors } from '../lib/form';

export type AppFormProps = Omit<ComponentProps<'form'>, 'onSubmit' | 'noValidate'> & {
  form: AnyFormApi;
  /** The call the form started is still running elsewhere (a machine): submits are ignored. */
  busy?: boolean;
  /**
   * What the form's validation needs before a submit, when it loads on demand (the sign-in form's
   * schema, decision 072): awaited first; a failure ends the submit (the caller says why).
   */
  ready?: () => Promise<unknown>;
};

const FOCUSABLE = 'input:not([type="hidden"]), select, textarea';

/** The first field marked invalid, or the first input inside a marked group (a fieldset). */
function focusFirstInvalid(root: HTMLFormElement | null) {
  const marked = root?.querySelector<HTMLElement>('[aria-invalid="true"]');
  const target = marked?.matches(FOCUSABLE) ? marked : marked?.querySelector<HTMLElement>(FOCUSABLE);
  target?.focus();
}

/**
 * Every TanStack form of the app (issue 22): one `<form noValidate>` that
 * - sends once: a submit while the last one runs (a double click, a repeated Enter) is ignored; the
 *   form's `onSubmit` returns the call's promise (`mutateAsync`) so "runs" lasts until the answer;
 * - shows every field's error on submit (fields count as left), and moves focus to the first
 *   invalid field;
 * - puts the server's field errors (the envelope's `errors`) on their fields when the call fails,
 *   marked (aria-invalid) and described (aria-describedby, by the field's Ark parts), focus on the
 *   first. The toast stays the caller's (its `onError`), with docs/product.md#errors's text.
 */
export function AppForm({ form, busy, ready, children, ...props }: AppFormProps) {
  const ref = useRef<HTMLFormElement>(null);
  const running = useRef(false);
  const submit = async () => {
    if (running.current || busy) return;
    running.current = true;
    markFieldsLeft(form);
    try {
      await ready?.();
      await form.handleSubmit();
    } catch (error) {
      placeServerErrors(form, error);
    } finally {
      running.current = false;
    }
    // After React has drawn the marks.
    setTimeout(() => focusFirstInvalid(ref.current), 0);
  };
  return (
    <form
      ref={ref}
      noValidate
      onSubmit={(event: FormEvent) => {
        event.preventDefault();
        void submit();
      }}
      {...props}
    >
      {children}
    </form>
  );
}
