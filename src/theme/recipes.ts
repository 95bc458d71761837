import {
  avatarAnatomy,
  dialogAnatomy,
  fieldAnatomy,
  menuAnatomy,
  passwordInputAnatomy,
  toastAnatomy,
} from '@ark-ui/react/anatomy';
import { defineRecipe, defineSlotRecipe } from '@pandacss/dev';

export const buttonRecipe = defineRecipe({
  className: 'button',
  base: {
    display: 'inline-flex',
    alignItems: 'center',
    justifyContent: 'center',
    gap: '2',
    fontWeight: 'semibold',
    borderRadius: 'md',
    cursor: 'pointer',
    transition: 'background 0.15s, box-shadow 0.15s, color 0.15s',
    whiteSpace: 'nowrap',
    _focusVisible: { outline: '2px solid', outlineColor: 'border.focus', outlineOffset: '2px' },
    _disabled: { opacity: 0.6, cursor: 'not-allowed' },
    // Busy (Button's loading prop): the label keeps the width, the spinner sits over it.
    '&[data-loading]': { position: 'relative', cursor: 'progress' },
    '&[data-loading] > [data-part=label]': { visibility: 'hidden', display: 'inline-flex', gap: '2' },
    '&[data-loading] > [data-part=spinner]': {
      position: 'absolute',
      inset: '0',
      display: 'flex',
      alignItems: 'center',
      justifyContent: 'center',
    },
  },
  variants: {
    variant: {
      solid: { bg: 'brand.700', color: 'fg.onBrand', _hover: { bg: 'brand.800' } },
      outline: {
        bg: 'bg.surface',
        color: 'brand.700',
        borderWidth: '1px',
        borderColor: 'border.strong',
        _hover: { bg: 'brand.50' },
      },
      ghost: { bg: 'transparent', color: 'fg.default', _hover: { bg: 'bg.subtle' } },
      danger: { bg: 'red.600', color: 'fg.onBrand', _hover: { bg: 'red.700' } },
      /** An outlined button on the dark brand menu (the phone's Menu button). */
      inverse: {
        bg: 'transparent',
        color: 'white',
        borderWidth: '1px',
        borderColor: 'brand.600',
        _hover: { bg: 'brand.800' },
        _focusVisible: { outlineColor: 'brand.200' },
      },
    },
    size: {
      sm: { h: '8', px: '3', fontSize: 'sm' },
      md: { h: '10', px: '4', fontSize: 'sm' },
      lg: { h: '12', px: '5', fontSize: 'md' },
      icon: { h: '10', w: '10', p: '0' },
    },
    fullWidth: { true: { w: 'full' } },
  },
  defaultVariants: { variant: 'solid', size: 'md' },
});

/**
 * A button that holds only an icon (decision 042): the top bar's profile menu trigger, the dialogs'
 * and the receipt magnifier's close, the phone menu drawer's close and the password show/hide toggle. Where it sits
 * (absolute corners, the password box's right edge) stays with the part that places it; this is the
 * rest: a centred square or circle, its size, and a tone for the background it stands on.
 *
 * All four are parts of slot recipes (menu trigger, dialog close, password toggle), so they take it
 * through `iconButtonStyles`. Not a config recipe: each config recipe adds a runtime module to the
 * first screen's JavaScript (the recipes all sit in the boot chunk), and no component needs one.
 */
const iconButton = {
  base: { display: 'inline-flex', alignItems: 'center', justifyContent: 'center', cursor: 'pointer' },
  size: { sm: { w: '8', h: '8' }, md: { w: '9', h: '9' }, lg: { w: '10', h: '10' } },
  shape: { square: { borderRadius: 'md' }, round: { borderRadius: 'full' } },
  tone: {
    /** On a light surface, grey until hovered (the password toggle). */
    muted: {
      color: 'fg.muted',
      _hover: { bg: 'bg.subtle', color: 'fg.default' },
      _focusVisible: { outline: '2px solid', outlineColor: 'border.focus' },
    },
    /** The colour of the bar around it (the top bar, light or dark once scrolled). */
    inherit: {
      color: 'inherit',
      _hover: { bg: 'bg.subtle', color: 'fg.default' },
      _focusVisible: { outline: '2px solid', outlineColor: 'border.focus' },
    },
    /** On the dark brand menu (the drawer). */
    inverse: {
      color: 'brand.100',
      _hover: { bg: 'brand.800', color: 'white' },
      _focusVisible: { outline: '2px solid', outlineColor: 'brand.200' },
    },
    /** On a dimmed photo (the magnifier). */
    overlay: {
      bg: 'white/15',
      color: 'white',
      _hover: { bg: 'white/25' },
      _focusVisible: { outline: '2px solid', outlineColor: 'white' },
    },
  },
} as const;

/** The icon button's styles, for a slot of a slot recipe. */
const iconButtonStyles = (
  size: keyof typeof iconButton.size,
  shape: keyof typeof iconButton.shape,
  tone: keyof typeof iconButton.tone,
) => ({ ...iconButton.base, ...iconButton.size[size], ...iconButton.shape[shape], ...iconButton.tone[tone] });

export const spinnerRecipe = defineRecipe({
  className: 'spinner',
  base: {
    display: 'inline-block',
    borderRadius: 'full',
    borderWidth: '2px',
    borderStyle: 'solid',
    borderColor: 'currentColor',
    borderRightColor: 'transparent',
    animation: 'spin 0.7s linear infinite',
  },
  variants: {
    size: {
      sm: { w: '4', h: '4' },
      md: { w: '6', h: '6' },
      lg: { w: '10', h: '10', borderWidth: '3px' },
    },
  },
  defaultVariants: { size: 'md' },
});

const inputBase = {
  w: 'full',
  h: '11',
  px: '3',
  borderRadius: 'md',
  borderWidth: '1px',
  borderColor: 'border.strong',
  bg: 'bg.surface',
  color: 'fg.default',
  fontSize: 'sm',
  outline: 'none',
  transition: 'border-color 0.15s, box-shadow 0.15s',
  _placeholder: { color: 'fg.subtle' },
  _focus: { borderColor: 'border.focus', boxShadow: '0 0 0 1px token(colors.border.focus)' },
  _invalid: { borderColor: 'border.error', _focus: { boxShadow: '0 0 0 1px token(colors.border.error)' } },
} as const;

export const fieldRecipe = defineSlotRecipe({
  className: 'field',
  slots: fieldAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5', w: 'full' },
    label: { fontSize: 'sm', fontWeight: 'medium', color: 'fg.default' },
    input: {
      ...inputBase,
      // File inputs (receipt photo, cover, promotional and profile images) look like the rest: the
      // same box, with the chooser as a soft brand button (issue 16).
      '&[type=file]': {
        h: 'auto',
        minH: '11',
        py: '1.5',
        cursor: 'pointer',
        '&::file-selector-button': {
          mr: '3',
          px: '3',
          py: '1.5',
          borderRadius: 'md',
          border: 'none',
          bg: 'brand.50',
          color: 'brand.800',
          fontWeight: 'medium',
          cursor: 'pointer',
        },
      },
    },
    textarea: { ...inputBase, h: 'auto', minH: '20', py: '2' },
    helperText: { fontSize: 'xs', color: 'fg.muted' },
    errorText: { fontSize: 'xs', color: 'fg.error', lineHeight: 'tight' },
  },
});

export const passwordInputRecipe = defineSlotRecipe({
  className: 'password-input',
  slots: passwordInputAnatomy.keys(),
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '1.5', w: 'full' },
    label: { fontSize: 'sm', fontWeight: 'medium', color: 'fg.default' },
    control: { position: 'relative', w: 'full' },
    input: { ...inputBase, pr: '12' },
    visibilityTrigger: {
      position: 'absolute',
      top: '50%',
      right: '1',
      transform: 'translateY(-50%)',
      ...iconButtonStyles('md', 'square', 'muted'),
    },
    indicator: { display: 'inline-flex' },
  },
});

export const menuRecipe = defineSlotRecipe({
  className: 'menu',
  slots: menuAnatomy.keys(),
  base: {
    content: {
      minW: '14rem',
      layerStyle: 'popover',
      p: '1',
      outline: 'none',
      zIndex: 'dropdown',
      _open: { animation: 'fadeIn 0.12s ease-out' },
    },
    item: {
      display: 'flex',
      alignItems: 'center',
      gap: '2',
      px: '3',
      py: '2',
      borderRadius: 'md',
      fontSize: 'sm',
      color: 'fg.default',
      cursor: 'pointer',
      _highlighted: { bg: 'brand.50', color: 'brand.800' },
      _disabled: { cursor: 'default', color: 'fg.muted', fontWeight: 'medium' },
    },
    separator: { my: '1', borderTopWidth: '1px', borderColor: 'border.default' },
    // The app's one menu opens from the top bar's round button.
    trigger: iconButtonStyles('lg', 'round', 'inherit'),
    itemGroupLabel: { px: '3', py: '2', fontSize: 'xs', color: 'fg.muted' },
  },
});

/**
 * Ark Dialog parts: focus trapped inside, Escape and the backdrop close it, focus returns to the
 * trigger. Three placements of one dialog (decision 042): `center`, the generic dialog (30rem from
 * md up, full width on small screens); `start`, a dark panel that slides in from the left edge (the
 * main menu on small screens, the Drawer component); `full`, the whole window over a dark backdrop
 * (the receipt magnifier).
 */
export const dialogRecipe = defineSlotRecipe({
  className: 'dialog',
  slots: dialogAnatomy.keys(),
  base: {
    backdrop: { position: 'fixed', inset: '0', bg: 'bg.overlay', zIndex: 'overlay' },
    positioner: { position: 'fixed', inset: '0', display: 'flex', zIndex: 'modal' },
    content: { position: 'relative', outline: 'none' },
    description: { fontSize: 'sm', color: 'fg.muted' },
    closeTrigger: { position: 'absolute', right: '3' },
  },
  variants: {
    placement: {
      center: {
        positioner: { alignItems: 'center', justifyContent: 'center', p: '4' },
        content: {
          overflowY: 'auto',
          boxShadow: 'raised',
          w: { base: 'full', md: 'dialog' },
          maxH: 'calc(100vh - 2rem)',
          bg: 'bg.surface',
          borderRadius: 'xl',
          p: '6',
        },
        title: { fontSize: 'lg', fontWeight: 'semibold', color: 'fg.default', mb: '3', pr: '8' },
        closeTrigger: { top: '3', ...iconButtonStyles('sm', 'square', 'muted') },
      },
      start: {
        positioner: { justifyContent: 'flex-start' },
        content: {
          display: 'flex',
          flexDirection: 'column',
          gap: '4',
          w: 'drawer',
          maxW: 'calc(100vw - 3rem)',
          h: '100dvh',
          overflowY: 'auto',
          boxShadow: 'raised',
          bg: 'brand.900',
          color: 'white',
          px: '4',
          py: '5',
          _open: { animation: 'drawerIn 0.18s ease-out' },
        },
        title: {
          display: 'flex',
          alignItems: 'center',
          gap: '2',
          px: '2',
          fontWeight: 'bold',
          fontSize: 'md',
        },
        closeTrigger: { top: '4', ...iconButtonStyles('md', 'square', 'inverse') },
      },
      full: {
        backdrop: { bg: 'black/80' },
        positioner: { alignItems: 'center', justifyContent: 'center' },
        content: {
          w: '100vw',
          h: '100vh',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          cursor: 'zoom-out',
        },
        closeTrigger: { top: '4', right: '4', ...iconButtonStyles('lg', 'round', 'overlay') },
      },
    },
  },
  defaultVariants: { placement: 'center' },
});

export const toastRecipe = defineSlotRecipe({
  className: 'toast',
  slots: toastAnatomy.keys(),
  base: {
    root: {
      position: 'relative',
      // A phone: the width of the screen less the offsets (toasts sit at the bottom there).
      minW: { base: 'min(18rem, calc(100vw - 2rem))', md: '18rem' },
      maxW: { base: 'calc(100vw - 2rem)', md: '24rem' },
      w: { base: 'calc(100vw - 2rem)', md: 'auto' },
      px: '4',
      py: '3',
      pr: '10',
      borderRadius: 'lg',
      boxShadow: 'raised',
      color: 'fg.onBrand',
      bg: 'toast.info',
      translate: 'var(--x) var(--y)',
      scale: 'var(--scale)',
      zIndex: 'var(--z-index)',
      height: 'var(--height)',
      opacity: 'var(--opacity)',
      willChange: 'translate, opacity, scale',
      transitionDuration: 'toastCollapse',
      transitionProperty: 'translate, scale, opacity, height',
      transitionTimingFunction: 'ease',
      '&[data-type=error]': { bg: 'toast.error' },
      '&[data-type=success]': { bg: 'toast.success' },
    },
    title: { fontSize: 'sm', fontWeight: 'semibold' },
    description: { fontSize: 'sm', opacity: 0.9 },
    closeTrigger: {
      position: 'absolute',
      top: '2',
      right: '2',
      w: '6',
      h: '6',
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      borderRadius: 'sm',
      cursor: 'pointer',
      color: 'inherit',
      opacity: 0.8,
      _hover: { opacity: 1 },
    },
  },
});

export const avatarRecipe = defineSlotRecipe({
  className: 'avatar',
  slots: avatarAnatomy.keys(),
  base: {
    root: {
      display: 'inline-flex',
      alignItems: 'center',
      justifyContent: 'center',
      flexShrink: 0,
      overflow: 'hidden',
      borderRadius: 'full',
      bg: 'brand.100',
      color: 'brand.800',
      fontWeight: 'semibold',
      borderWidth: '2px',
      borderColor: 'white',
    },
    image: { w: 'full', h: 'full', objectFit: 'cover' },
    fallback: { textTransform: 'uppercase' },
  },
  variants: {
    size: {
      sm: { root: { w: '8', h: '8', fontSize: 'xs' } },
      md: { root: { w: '11', h: '11', fontSize: 'sm' } },
      lg: { root: { w: '20', h: '20', fontSize: 'xl' } },
    },
  },
  defaultVariants: { size: 'md' },
});
