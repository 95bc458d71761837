import { renderToStaticMarkup } from 'react-dom/server';
import { AuthShell } from '../components/auth-shell';
import { forgotPasswordLinkClass, SignInForm } from '../components/sign-in-form';
import { SIGN_IN_HEADING } from '../routes/-components/sign-in-screen';

/**
 * The sign-in screen as static HTML, rendered at build time into `sign-in.html` (vite.config.ts),
 * which the server sends for `/` (decision 021). A first visit on a slow network paints the screen
 * from the HTML alone instead of after the whole initial JavaScript; React then renders the same
 * screen in its place. Until then the copy's fields and buttons are disabled (nothing typed into it
 * can be lost, and they look not yet ready); its forgot-password link is a plain link and works.
 */
export function renderSignInMarkup(): string {
  const screen = renderToStaticMarkup(
    <AuthShell heading={SIGN_IN_HEADING}>
      <SignInForm
        submitting={false}
        onSubmit={() => {}}
        footer={
          <a href="/forgot-password" className={forgotPasswordLinkClass}>
            Forgot password?
          </a>
        }
      />
    </AuthShell>,
  );
  const disabled = screen.replace(/<(input|button)\b/g, '<$1 disabled=""');
  return `<div data-prerendered="sign-in" aria-busy="true">${disabled}</div>`;
}
