import type { ReactNode, SVGProps } from 'react';

/**
 * The icons of the first screen (the sign-in's logo and password eye) and what every icon is made
 * with. Apart from ./icons so that the first screen's file (decision 072) carries these three, not
 * all of them (decision 077); ./icons re-exports the logo, the one the app uses elsewhere.
 */

/** Small inline icons (stroke = currentColor), decorative unless given a title by the caller. */
type IconProps = SVGProps<SVGSVGElement> & { size?: number };

const Svg = ({ size = 18, children, ...props }: IconProps) => (
  <svg
    width={size}
    height={size}
    viewBox="0 0 24 24"
    fill="none"
    stroke="currentColor"
    strokeWidth={1.8}
    strokeLinecap="round"
    strokeLinejoin="round"
    aria-hidden="true"
    focusable="false"
    {...props}
  >
    {children}
  </svg>
);

/** An icon from its shapes: `icon(<path d="…" />)`. */
export const icon = (shapes: ReactNode) => (p: IconProps) => <Svg {...p}>{shapes}</Svg>;

export const EyeIcon = icon(
  <>
    <path d="M2 12s3.5-7 10-7 10 7 10 7-3.5 7-10 7S2 12 2 12Z" />
    <circle cx="12" cy="12" r="3" />
  </>,
);

export const EyeOffIcon = icon(
  <>
    <path d="M10.7 5.1A10 10 0 0 1 12 5c6.5 0 10 7 10 7a17 17 0 0 1-2.2 3.2M6.6 6.6A17 17 0 0 0 2 12s3.5 7 10 7a9.7 9.7 0 0 0 5.4-1.6" />
    <path d="M9.9 9.9a3 3 0 0 0 4.2 4.2M2 2l20 20" />
  </>,
);

export const LogoMark = ({ size = 32, ...props }: IconProps) => (
  <svg width={size} height={size} viewBox="0 0 32 32" aria-hidden="true" focusable="false" {...props}>
    <circle cx="16" cy="16" r="14" fill="none" stroke="currentColor" strokeWidth="3" opacity="0.35" />
    <path
      d="M16 2a14 14 0 0 1 14 14"
      fill="none"
      stroke="currentColor"
      strokeWidth="3"
      strokeLinecap="round"
    />
    <path d="m16 9 2.1 4.3 4.7.7-3.4 3.3.8 4.7-4.2-2.2-4.2 2.2.8-4.7L9.2 14l4.7-.7Z" fill="currentColor" />
  </svg>
);
