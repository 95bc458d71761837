import { Avatar as ArkAvatar } from '@ark-ui/react/avatar';
import { type AvatarVariantProps, avatar } from '../../../styled-system/recipes';
import { initials } from '../../lib/format';

export type AvatarProps = AvatarVariantProps & { name: string; src?: string | null | undefined };

export function Avatar({ name, src, size }: AvatarProps) {
  const classes = avatar({ size });
  return (
    <ArkAvatar.Root className={classes.root}>
      <ArkAvatar.Fallback className={classes.fallback}>{initials(name) || '?'}</ArkAvatar.Fallback>
      {src ? <ArkAvatar.Image className={classes.image} src={src} alt={name} /> : null}
    </ArkAvatar.Root>
  );
}
