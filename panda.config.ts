import { defineConfig } from '@pandacss/dev';
import {
  avatarRecipe,
  buttonRecipe,
  dialogRecipe,
  fieldRecipe,
  menuRecipe,
  passwordInputRecipe,
  spinnerRecipe,
  toastRecipe,
} from './src/theme/recipes';
import { layerStyles, semanticTokens, textStyles, tokens } from './src/theme/tokens';

export default defineConfig({
  preflight: true,
  include: ['./src/**/*.{ts,tsx}'],
  exclude: [],
  jsxFramework: 'react',
  outdir: 'styled-system',
  globalCss: {
    'html, body': { bg: 'bg.canvas', color: 'fg.default', fontFamily: 'body' },
    body: { minH: '100vh', WebkitFontSmoothing: 'antialiased' },
    // People who ask their system for less motion get none: spinners and skeletons hold still
    // (still shown, still announced), toasts and menus appear without sliding (decision 019).
    // Printing (the redemption receipt): only what is marked data-print-root, on white, without
    // the buttons, menus and the rest of the screen around it.
    '@media print': {
      'body *': { visibility: 'hidden' },
      '[data-print-root], [data-print-root] *': { visibility: 'visible' },
      '[data-print-root]': { position: 'absolute', insetInlineStart: '0', top: '0', w: 'full', p: '4' },
      '[data-print-hide]': { display: 'none !important' },
      'html, body': { bg: 'white', color: 'black' },
    },
    '@media (prefers-reduced-motion: reduce)': {
      '*, *::before, *::after': {
        animationDuration: '0.01ms !important',
        animationIterationCount: '1 !important',
        transitionDuration: '0.01ms !important',
        scrollBehavior: 'auto !important',
      },
    },
  },
  theme: {
    extend: {
      tokens,
      semanticTokens,
      layerStyles,
      textStyles,
      keyframes: {
        fadeIn: {
          from: { opacity: 0, transform: 'translateY(-4px)' },
          to: { opacity: 1, transform: 'none' },
        },
        pulse: { '50%': { opacity: 0.55 } },
        drawerIn: { from: { transform: 'translateX(-100%)' }, to: { transform: 'none' } },
        progressSlide: {
          '0%': { transform: 'translateX(-100%)' },
          '100%': { transform: 'translateX(250%)' },
        },
      },
      recipes: { button: buttonRecipe, spinner: spinnerRecipe },
      slotRecipes: {
        field: fieldRecipe,
        passwordInput: passwordInputRecipe,
        menu: menuRecipe,
        dialog: dialogRecipe,
        toast: toastRecipe,
        avatar: avatarRecipe,
      },
    },
  },
});
