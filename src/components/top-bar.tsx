import { useEffect, useState } from 'react';
import { css } from '../../styled-system/css';
import { CacheAgeNotice } from './cache-age-notice';
import { ChevronDownIcon } from './icons';
import { Avatar } from './ui/avatar';
import { MenuContent, MenuItem, MenuRoot, MenuSeparator, MenuTrigger } from './ui/menu';

/** docs/product.md#constants: the top bar turns dark and translucent beyond 50 px of scroll. */
export const SCROLL_THRESHOLD = 50;

export function useScrolledBeyond(threshold = SCROLL_THRESHOLD): boolean {
  const [scrolled, setScrolled] = useState(false);
  useEffect(() => {
    const update = () => setScrolled(window.scrollY > threshold);
    update();
    window.addEventListener('scroll', update, { passive: true });
    return () => window.removeEventListener('scroll', update);
  }, [threshold]);
  return scrolled;
}

export interface TopBarProps {
  name: string;
  imageUrl?: string | null | undefined;
  onProfile: () => void;
  onLogout: () => void;
}

export function TopBar({ name, imageUrl, onProfile, onLogout }: TopBarProps) {
  const scrolled = useScrolledBeyond();
  return (
    <header
      data-scrolled={scrolled || undefined}
      className={css({
        position: 'sticky',
        top: '0',
        zIndex: 'sticky',
        display: 'flex',
        alignItems: 'center',
        gap: '4',
        px: { base: '4', md: '8' },
        py: '4',
        bg: 'bg.canvas',
        color: 'fg.default',
        transition: 'background 0.2s, color 0.2s, box-shadow 0.2s',
        '&[data-scrolled]': {
          bg: 'bg.topbarScrolled',
          color: 'white',
          backdropFilter: 'blur(8px)',
          boxShadow: 'raised',
        },
      })}
    >
      <Avatar name={name} src={imageUrl} />
      <div className={css({ flex: '1', minW: '0' })}>
        <h1 className={css({ fontSize: 'xl', fontWeight: 'bold', lineClamp: 1 })}>{name}</h1>
        <p className={css({ fontSize: 'sm', opacity: 0.75 })}>Welcome back to the Reward Club Admin</p>
        <CacheAgeNotice />
      </div>
      <MenuRoot
        positioning={{ placement: 'bottom-end' }}
        onSelect={(details) => {
          if (details.value === 'profile') onProfile();
          if (details.value === 'logout') onLogout();
        }}
      >
        <MenuTrigger aria-label="Open profile menu">
          <ChevronDownIcon size={20} />
        </MenuTrigger>
        <MenuContent>
          <MenuItem value="profile">Profile</MenuItem>
          <MenuItem value="name" disabled>
            {name}
          </MenuItem>
          <MenuSeparator />
          <MenuItem value="logout">Logout</MenuItem>
        </MenuContent>
      </MenuRoot>
    </header>
  );
}
