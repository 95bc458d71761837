import { css } from '../../../styled-system/css';

/** A link inside text: brand colour, semibold, underlined on hover. */
export const textLink = css({
  color: 'brand.700',
  fontWeight: 'semibold',
  _hover: { textDecoration: 'underline' },
});

/** A link in a table cell (a row's name or number): the text link kept on one line, with a focus ring. */
export const tableLink = css({
  fontWeight: 'semibold',
  color: 'brand.700',
  whiteSpace: 'nowrap',
  _hover: { textDecoration: 'underline' },
  _focusVisible: { outline: '2px solid', outlineColor: 'border.focus', outlineOffset: '2px' },
});
