import { EARLY_SIGN_IN_GLOBAL } from '../lib/early-sign-in';

/**
 * The one inline script of `sign-in.html` (decision 061), run as soon as the parser reaches it,
 * right after the prerendered form: before the app's JavaScript has arrived the form is usable and
 * nothing the person does is lost. It only keeps what the person did: which field has focus, and a
 * press of Sign in (click or Enter), which it stops from submitting the page natively and shows as
 * the app's busy button (`busyButton`: the submit button's inner HTML while signing in, rendered from
 * the real Button). The values stay in the inputs. The app's sign-in form (src/lib/early-sign-in.ts)
 * takes all of it over and signs in through the session machine: there is no second sign-in here.
 * Plain ES5, no module: the server allows it by its hash in the page's Content-Security-Policy.
 */
export function earlySignInScript(busyButton: string): string {
  return `(function(){var f=document.querySelector('[data-prerendered] form');if(!f)return;var n=window.${EARLY_SIGN_IN_GLOBAL}={focus:null,submitted:false};
f.addEventListener('focusin',function(e){var t=e.target;n.focus=t.name==='email'||t.name==='password'?t.name:null;});
f.addEventListener('focusout',function(e){var t=e.target;setTimeout(function(){if(f.isConnected&&!f.contains(document.activeElement)&&n.focus===t.name)n.focus=null;},0);});
f.addEventListener('submit',function(e){e.preventDefault();if(n.submitted)return;n.submitted=true;var b=f.querySelector('button[type="submit"]');if(b){b.setAttribute('aria-busy','true');b.setAttribute('aria-disabled','true');b.setAttribute('data-loading','true');b.innerHTML=${JSON.stringify(busyButton)};}});})();`;
}
