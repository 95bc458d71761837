import { renderToStaticMarkup } from 'react-dom/server';
import { AuthShell } from '../components/auth-shell';
import { forgotPasswordLinkClass, SignInForm } from '../components/sign-in-form';
import { SIGN_IN_HEADING } from '../routes/-components/sign-in-screen';
import { earlySignInScript } from './early-sign-in-script';

const screen = (submitting: boolean) =>
  renderToStaticMarkup(
    <AuthShell heading={SIGN_IN_HEADING}>
      <SignInForm
        submitting={submitting}
        onSubmit={() => {}}
        footer={
          <a href="/forgot-password" className={forgotPasswordLinkClass}>
            Forgot password?
          </a>
        }
      />
    </AuthShell>,
  );

const SUBMIT_BUTTON = /<button[^>]*type="submit"[^>]*>([\s\S]*?)<\/button>/;

/**
 * The sign-in screen as static HTML, rendered at build time into `sign-in.html` (vite.config.ts),
 * which the server sends for `/` (decision 021). A first visit on a slow network paints the screen
 * from the HTML alone instead of after the whole initial JavaScript; React then renders the same
 * screen in its place. The copy's fields are usable from the first paint (decision 061): the inline
 * script after it keeps a press of Sign in, and the app's form takes over what was typed.
 */
export function renderSignInMarkup(): string {
  const busyButton = screen(true).match(SUBMIT_BUTTON)?.[1];
  if (!busyButton) throw new Error('the sign-in form has no submit button to prerender');
  const script = earlySignInScript(busyButton);
  return `<div data-prerendered="sign-in">${screen(false)}</div><script>${script}</script>`;
}
