import type { StandardSchemaV1 } from '@tanstack/react-form';
import type { LoginBody, loginBodySchema } from '../../contract/auth';

/**
 * The sign-in form's one validation, the contract's `loginBodySchema` (the server's own), loaded
 * behind the first screen (decision 072): contract/auth and zod come with the session's file, after
 * the prerendered first visit's form is live, instead of in the JavaScript before it.
 */
type LoginSchema = typeof loginBodySchema;

let loaded: LoginSchema | undefined;
let loading: Promise<LoginSchema> | undefined;

/** Loads the contract's schema (once; a file that could not be fetched is tried again next time). */
export function loadLoginSchema(): Promise<LoginSchema> {
  loading ??= import('../../contract/auth').then(
    ({ loginBodySchema }) => {
      loaded = loginBodySchema;
      return loginBodySchema;
    },
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The schema, once it has arrived. */
export const loginSchemaLoaded = (): LoginSchema | undefined => loaded;

/**
 * The form's validator from its first render: the contract's schema once it has arrived; before
 * that nothing is refused yet (the form validates again when it arrives, and a submit waits for it:
 * src/components/sign-in-form.tsx).
 */
export const loginValidator: StandardSchemaV1<LoginBody, LoginBody> = {
  '~standard': {
    version: 1,
    vendor: 'reward-club',
    validate: (value) => (loaded ? loaded['~standard'].validate(value) : { value: value as LoginBody }),
  },
};
