import { Menu as ArkMenu } from '@ark-ui/react/menu';
import { Portal } from '@ark-ui/react/portal';
import type { ComponentProps } from 'react';
import { cx } from '../../../styled-system/css';
import { menu } from '../../../styled-system/recipes';

/** Dropdown menu: Ark Menu parts joined to the `menu` slot recipe. */
const classes = () => menu();

export const MenuRoot = ArkMenu.Root;
export function MenuTrigger({ className, ...props }: ComponentProps<typeof ArkMenu.Trigger>) {
  return <ArkMenu.Trigger className={cx(classes().trigger, className)} {...props} />;
}

export function MenuContent({ className, ...props }: ComponentProps<typeof ArkMenu.Content>) {
  return (
    <Portal>
      <ArkMenu.Positioner>
        <ArkMenu.Content className={cx(classes().content, className)} {...props} />
      </ArkMenu.Positioner>
    </Portal>
  );
}

export function MenuItem({ className, ...props }: ComponentProps<typeof ArkMenu.Item>) {
  return <ArkMenu.Item className={cx(classes().item, className)} {...props} />;
}

export function MenuSeparator({ className, ...props }: ComponentProps<typeof ArkMenu.Separator>) {
  return <ArkMenu.Separator className={cx(classes().separator, className)} {...props} />;
}
