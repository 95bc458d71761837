import { useForm } from '@tanstack/react-form';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { LoginBody } from '../../contract/auth';
import { css } from '../../styled-system/css';
import { NETWORK_ERROR } from '../lib/api-error';
import type { EarlySignIn } from '../lib/early-sign-in';
import { fieldProps, validateOnChangeAndBlur } from '../lib/form';
import { loadLoginSchema, loginSchemaLoaded, loginValidator } from '../lib/login-schema';
import { AppForm } from './app-form';
import { Button } from './ui/button';
import { TextField } from './ui/field';
import { notify } from './ui/notify';
import { PasswordField } from './ui/password-input';

export interface SignInFormProps {
  onSubmit: (credentials: LoginBody) => void;
  /** True while the sign-in call runs: the button becomes a spinner. */
  submitting: boolean;
  /** Rendered below the button (the forgot-password link); optional so the form renders without a router. */
  footer?: React.ReactNode;
  /**
   * What the person did on the prerendered copy before the app took over (decision 061): the form
   * starts with those values and that focus, and a press of Sign in is carried out once, busy from
   * the first paint.
   */
  early?: EarlySignIn | null | undefined;
}

const defaultValues: LoginBody = { email: '', password: '' };

/**
 * docs/product.md#screens resets the form after submit; issue 22 keeps the email (only the password is
 * cleared) and, when the call ends without leaving the screen (a refusal), puts focus on the
 * password to try again.
 */
export function SignInForm({ onSubmit, submitting, footer, early }: SignInFormProps) {
  const email = useRef<HTMLInputElement>(null);
  const password = useRef<HTMLInputElement>(null);
  // Sign in pressed on the prerendered copy: busy from the first paint until the press is carried out.
  const [replaying, setReplaying] = useState(() => early?.submitted() ?? false);
  const wasSubmitting = useRef(submitting);
  useEffect(() => {
    if (wasSubmitting.current && !submitting) password.current?.focus();
    wasSubmitting.current = submitting;
  }, [submitting]);
  const [startValues] = useState(() => (early ? early.values() : defaultValues));
  const form = useForm({
    defaultValues: startValues,
    validationLogic: validateOnChangeAndBlur,
    // The contract's schema, which arrives behind the first screen (src/lib/login-schema.ts).
    validators: { onChange: loginValidator },
    onSubmit: ({ value, formApi }) => {
      const schema = loginSchemaLoaded();
      // `ready` below awaited it: never without.
      if (!schema) return;
      const credentials = schema.parse(value);
      onSubmit(credentials);
      formApi.reset({ email: credentials.email, password: '' }, { keepDefaultValues: true });
    },
  });
  // Sign in pressed before the schema had arrived: busy until the press is carried out (or refused).
  const [holding, setHolding] = useState(false);
  const ready = async () => {
    if (loginSchemaLoaded()) return;
    setHolding(true);
    try {
      await loadLoginSchema();
    } catch (error) {
      // Its file could not be fetched (the link died): as a sign-in call that got no answer.
      notify.error(NETWORK_ERROR);
      throw error;
    } finally {
      // A task later: the submit it held has reached the caller (busy from there) by then.
      setTimeout(() => setHolding(false), 0);
    }
  };
  // The schema arrives: what is in the fields now is checked (messages show on fields already left).
  // Asked for a task later: the form's first paint comes first (src/main.tsx loads it then too).
  useEffect(() => {
    if (loginSchemaLoaded()) return;
    let mounted = true;
    const timer = setTimeout(() => {
      loadLoginSchema()
        .then(() => {
          if (mounted) void form.validate('change');
        })
        .catch(() => undefined);
    }, 0);
    return () => {
      mounted = false;
      clearTimeout(timer);
    };
  }, [form]);
  // Right after React replaced the prerendered copy, in the same task (no key can land in between):
  // what was typed since the first render, the focus, and the press of Sign in, once.
  useLayoutEffect(() => {
    if (!early) return;
    const typed = early.values();
    for (const name of ['email', 'password'] as const)
      if (form.getFieldValue(name) !== typed[name])
        form.setFieldValue(name, typed[name], { dontValidate: true });
    const focus = early.focus();
    (focus === 'email' ? email : focus === 'password' ? password : null)?.current?.focus();
    if (early.takeSubmit()) {
      // Through the form's own submit (AppForm: validation, then onSubmit → the session machine).
      email.current?.form?.requestSubmit();
      // The session machine took the call (or the fields were refused): its own state shows from here.
      setTimeout(() => setReplaying(false), 0);
    } else setReplaying(false);
  }, [early, form]);

  return (
    <AppForm
      form={form}
      busy={submitting}
      ready={ready}
      aria-label="Sign in"
      className={css({ display: 'flex', flexDirection: 'column', gap: '5' })}
    >
      <form.Field name="email">
        {(field) => (
          <TextField
            label="Email"
            type="email"
            autoComplete="username"
            placeholder="Enter your email"
            ref={email}
            {...fieldProps(field)}
          />
        )}
      </form.Field>
      <form.Field name="password">
        {(field) => (
          <PasswordField
            ref={password}
            label="Password"
            autoComplete="current-password"
            placeholder="Enter your password"
            {...fieldProps(field)}
          />
        )}
      </form.Field>
      <div className={css({ display: 'flex', justifyContent: 'center', minH: '11', alignItems: 'center' })}>
        <Button
          type="submit"
          size="lg"
          fullWidth
          loading={submitting || replaying || holding}
          loadingText="Signing in"
        >
          Sign in
        </Button>
      </div>
      {footer}
    </AppForm>
  );
}

/**
 * The forgot-password link's look, shared by the route's link, the first screen's plain link
 * (src/main.tsx) and the prerendered sign-in screen (src/prerender). This file imports no router:
 * the first screen of a first visit renders it without one (decision 061).
 */
export const forgotPasswordLinkClass = css({
  alignSelf: 'center',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'brand.700',
  _hover: { textDecoration: 'underline' },
});
