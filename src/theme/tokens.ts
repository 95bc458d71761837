import { defineLayerStyles, defineSemanticTokens, defineTextStyles, defineTokens } from '@pandacss/dev';

/** Brand: a deep fiber blue. Every raw colour of the app lives here or in panda.config.ts. */
export const tokens = defineTokens({
  colors: {
    brand: {
      50: { value: '#eef3fc' },
      100: { value: '#d6e2f7' },
      200: { value: '#adc4ef' },
      300: { value: '#7d9fe2' },
      400: { value: '#4a76cf' },
      500: { value: '#1f55b8' },
      600: { value: '#124aa6' },
      700: { value: '#0b3d91' },
      800: { value: '#082f70' },
      900: { value: '#06224f' },
      950: { value: '#041633' },
    },
    /** docs/product.md#validation's error red (#fc8181): the invalid field's border. */
    fieldError: { value: '#fc8181' },
    /**
     * Error text. docs/product.md#validation gives #fc8181, which is 2.4:1 on white; issue 9 (WCAG AA, 4.5:1 for
     * 12 px text) wins: the same red, darker, 5.5:1 (decision 019).
     */
    fieldErrorText: { value: '#c53030' },
    white: { value: '#ffffff' },
  },
  fonts: {
    body: { value: "'Inter', system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif" },
  },
  sizes: {
    statCard: { value: '90px' },
    sidebar: { value: '15rem' },
    drawer: { value: '17rem' },
    dialog: { value: '30rem' },
  },
  durations: {
    toastCollapse: { value: '300ms' },
  },
  /**
   * The console's one stacking order (decision 067), lowest first. Every `zIndex` in the app names
   * one of these; nothing of the page (a sticky table cell, the top bar, a banner, a menu) can
   * paint above the overlay, the dialog or the drawer, and only toasts and the navigation bar sit
   * above a dialog. Tables isolate their sticky cells (`isolation: isolate`) as well.
   */
  zIndex: {
    /** The page itself. */
    base: { value: 0 },
    /** Parts of the page that stick while it scrolls sideways: a table's action column. */
    docked: { value: 10 },
    /** Parts that stick while the page scrolls down: the top bar, the sidebar, the phone's bar. */
    sticky: { value: 20 },
    /** App-wide notices over the page: offline, pending changes, the update prompt. */
    banner: { value: 30 },
    /** Menus opened from the page (the profile menu). */
    dropdown: { value: 40 },
    /** The dim layer under a dialog or the drawer. */
    overlay: { value: 50 },
    /** Dialogs and the menu drawer. */
    modal: { value: 60 },
    /** Toasts: they answer an action taken in a dialog, so they show above it. */
    toast: { value: 70 },
    /** The thin navigation progress bar along the window's top edge. */
    progress: { value: 80 },
  },
});

export const semanticTokens = defineSemanticTokens({
  colors: {
    bg: {
      canvas: { value: '{colors.slate.50}' },
      surface: { value: '{colors.white}' },
      subtle: { value: '{colors.slate.100}' },
      topbarScrolled: { value: 'rgba(4, 22, 51, 0.82)' },
      overlay: { value: 'rgba(4, 22, 51, 0.45)' },
    },
    fg: {
      default: { value: '{colors.slate.900}' },
      /** Secondary text: 7.6:1 on white, 6.9:1 on bg.subtle (slate.500 was 4.3:1 there; decision 019). */
      muted: { value: '{colors.slate.600}' },
      /** Placeholders and decorative icons: 4.8:1 on white. */
      subtle: { value: '{colors.slate.500}' },
      onBrand: { value: '{colors.white}' },
      error: { value: '{colors.fieldErrorText}' },
    },
    border: {
      default: { value: '{colors.slate.200}' },
      strong: { value: '{colors.slate.300}' },
      error: { value: '{colors.fieldError}' },
      focus: { value: '{colors.brand.500}' },
    },
    toast: {
      error: { value: '{colors.red.600}' },
      success: { value: '{colors.emerald.600}' },
      info: { value: '{colors.brand.700}' },
    },
  },
  shadows: {
    card: { value: '0 1px 2px rgba(15, 23, 42, 0.06), 0 1px 3px rgba(15, 23, 42, 0.1)' },
    raised: { value: '0 10px 30px rgba(15, 23, 42, 0.15)' },
  },
});

/**
 * Surfaces (decision 048), one rule each instead of the same five properties in every part:
 * `card`, a white box that sits on the page (tables, forms, detail lists, figures, panels);
 * `popover`, one that floats above it (menus, the update prompt); `outlined`, a frame on a surface. A part sets its own radius or
 * padding beside the layer style where it differs: Panda puts layer and text styles in a layer
 * below the atomic utilities, so those win.
 */
export const layerStyles = defineLayerStyles({
  card: {
    value: {
      backgroundColor: 'bg.surface',
      borderRadius: 'xl',
      borderWidth: '1px',
      borderColor: 'border.default',
      boxShadow: 'card',
    },
  },
  /** A thin frame without a shadow: choice rows, groups of checkboxes, thumbnails. */
  outlined: {
    value: { borderWidth: '1px', borderColor: 'border.default', borderRadius: 'md' },
  },
  popover: {
    value: {
      backgroundColor: 'bg.surface',
      borderRadius: 'lg',
      borderWidth: '1px',
      borderColor: 'border.default',
      boxShadow: 'raised',
    },
  },
});

/** A small upper-case caption: table column headers and the labels of a detail list. */
export const textStyles = defineTextStyles({
  caption: {
    value: { fontSize: 'xs', fontWeight: 'semibold', textTransform: 'uppercase', letterSpacing: 'wide' },
  },
});
