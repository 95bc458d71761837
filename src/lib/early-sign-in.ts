/**
 * What a person did on the prerendered sign-in form (decision 021) before the app took it over
 * (decision 061): the inline script of `sign-in.html` (src/prerender/early-sign-in-script.ts) notes
 * which field had focus and whether Sign in was pressed; the values are the prerendered inputs' own.
 * The app's sign-in form starts from them and, when Sign in was pressed, submits once through its
 * own logic (AppForm → the session machine). Nothing else signs in.
 */

/** The global the inline script fills; read once by the app. */
export const EARLY_SIGN_IN_GLOBAL = '__rcEarlySignIn';

type EarlyField = 'email' | 'password';

/** What the inline script keeps (plain data: it runs before any module). */
interface EarlySignInNotes {
  /** The field that had focus last (null once the person moved focus elsewhere). */
  focus: EarlyField | null;
  /** Sign in was pressed (click or Enter) before the app was there. */
  submitted: boolean;
}

export interface EarlySignIn {
  /** The values in the prerendered fields now (they keep their value once React has replaced them). */
  values(): { email: string; password: string };
  focus(): EarlyField | null;
  /** Sign in was pressed before the app was there: the app's form shows it busy from its first paint. */
  submitted(): boolean;
  /**
   * True the first time only, when Sign in was pressed: the one caller that carries it out. Also
   * ends the hand-over (a later sign-in screen, after a sign-out, starts empty).
   */
  takeSubmit(): boolean;
}

let captured: EarlySignIn | null = null;

/**
 * Keeps hold of the prerendered form's inputs before React replaces them: call before the first
 * render over the prerendered copy. The inputs, once out of the document, still hold what was typed
 * up to the moment React took over.
 */
export function captureEarlySignIn(root: ParentNode): void {
  const form = root.querySelector<HTMLFormElement>('[data-prerendered] form');
  const notes = (window as unknown as Record<string, EarlySignInNotes | undefined>)[EARLY_SIGN_IN_GLOBAL];
  if (!form || !notes) return;
  const input = (name: EarlyField) => form.querySelector<HTMLInputElement>(`input[name="${name}"]`);
  const email = input('email');
  const password = input('password');
  let submitTaken = false;
  const early: EarlySignIn = {
    values: () => ({ email: email?.value ?? '', password: password?.value ?? '' }),
    focus: () => notes.focus,
    submitted: () => notes.submitted,
    takeSubmit: () => {
      if (captured === early) captured = null;
      if (submitTaken || !notes.submitted) return false;
      submitTaken = true;
      return true;
    },
  };
  captured = early;
}

/** The captured input, for the first sign-in form the app renders (until its `takeSubmit`). */
export function earlySignIn(): EarlySignIn | null {
  return captured;
}
