import type { ReactNode } from 'react';
import { css } from '../../styled-system/css';
import { LogoMark } from './sign-in-icons';

/** The public screens' frame: the branded header and one white card. */
export function AuthShell({ heading, children }: { heading: string; children: ReactNode }) {
  return (
    <div
      className={css({
        minH: '100vh',
        display: 'flex',
        flexDirection: 'column',
        bgGradient: 'to-br',
        gradientFrom: 'brand.950',
        gradientVia: 'brand.800',
        gradientTo: 'brand.600',
      })}
    >
      <header
        className={css({
          display: 'flex',
          alignItems: 'center',
          gap: '3',
          px: { base: '6', md: '10' },
          py: '6',
          color: 'white',
        })}
      >
        <LogoMark size={34} />
        <span className={css({ fontSize: 'xl', fontWeight: 'bold', letterSpacing: 'tight' })}>
          Reward Club - Admin
        </span>
      </header>
      <main
        className={css({
          flex: '1',
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          px: '4',
          pb: '16',
        })}
      >
        <section
          className={css({
            w: 'full',
            maxW: '30rem',
            bg: 'bg.surface',
            borderRadius: '2xl',
            boxShadow: 'raised',
            px: { base: '6', md: '10' },
            py: { base: '8', md: '10' },
          })}
        >
          <h1
            className={css({
              fontSize: 'xl',
              fontWeight: 'bold',
              color: 'fg.default',
              mb: '6',
              textAlign: 'center',
            })}
          >
            {heading}
          </h1>
          {children}
        </section>
      </main>
    </div>
  );
}
