import { Tabs as ArkTabs } from '@ark-ui/react/tabs';
import type { ReactNode } from 'react';
import { sva } from '../../../styled-system/css';

const tabsRecipe = sva({
  slots: ['root', 'bar', 'list', 'trigger', 'content'],
  base: {
    root: { display: 'flex', flexDirection: 'column', gap: '4', w: 'full' },
    bar: {
      display: 'flex',
      flexWrap: 'wrap',
      alignItems: 'flex-end',
      justifyContent: 'space-between',
      gap: '4',
    },
    list: {
      display: 'flex',
      gap: '1',
      borderBottomWidth: '1px',
      borderColor: 'border.default',
      // Every tab shows at 375 px: the strip wraps onto a second line instead of scrolling.
      flexWrap: 'wrap',
      maxW: 'full',
    },
    trigger: {
      px: '4',
      py: '2.5',
      mb: '-1px',
      fontSize: 'sm',
      fontWeight: 'medium',
      color: 'fg.muted',
      borderBottomWidth: '2px',
      borderColor: 'transparent',
      cursor: 'pointer',
      whiteSpace: 'nowrap',
      transition: 'color 0.15s, border-color 0.15s',
      _hover: { color: 'fg.default' },
      _selected: { color: 'brand.700', borderColor: 'brand.700', fontWeight: 'semibold' },
      _focusVisible: { outline: '2px solid', outlineColor: 'border.focus', outlineOffset: '-2px' },
    },
    content: { outline: 'none' },
  },
});

export interface TabItem<V extends string> {
  value: V;
  label: string;
  content: ReactNode;
}

export interface TabsProps<V extends string> {
  value: V;
  onValueChange: (value: V) => void;
  items: readonly TabItem<V>[];
  /** Accessible name of the tab list. */
  label: string;
  /** Shown beside the tab list (e.g. the add button of the active tab). */
  actions?: ReactNode;
}

/** Tabs whose value the caller owns (the URL): Ark Tabs parts joined to a Panda slot recipe. */
export function Tabs<V extends string>({ value, onValueChange, items, label, actions }: TabsProps<V>) {
  const classes = tabsRecipe();
  return (
    <ArkTabs.Root
      value={value}
      onValueChange={(details) => onValueChange(details.value as V)}
      className={classes.root}
      lazyMount
      unmountOnExit
    >
      <div className={classes.bar}>
        <ArkTabs.List className={classes.list} aria-label={label}>
          {items.map((item) => (
            <ArkTabs.Trigger key={item.value} value={item.value} className={classes.trigger}>
              {item.label}
            </ArkTabs.Trigger>
          ))}
        </ArkTabs.List>
        {actions}
      </div>
      {items.map((item) => (
        <ArkTabs.Content key={item.value} value={item.value} className={classes.content}>
          {item.content}
        </ArkTabs.Content>
      ))}
    </ArkTabs.Root>
  );
}
