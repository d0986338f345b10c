import styled from '@emotion/styled';
import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode } from 'react';
import { TOUCH_MEDIA, TOUCH_TARGET } from '@kasa/ui';

const List = styled.div`
  display: flex;
  gap: 0.25rem;
  padding: 0.25rem;
  margin-bottom: 1.25rem;
  overflow-x: auto;
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
`;

const Tab = styled.button`
  flex: 1 0 auto;
  min-height: 2.5rem;
  padding: 0 0.875rem;
  border: 0;
  border-radius: var(--kasa-radius);
  background: transparent;
  color: var(--kasa-muted);
  font: inherit;
  font-weight: 600;
  white-space: nowrap;
  cursor: pointer;
  ${TOUCH_MEDIA} {
    min-height: ${TOUCH_TARGET};
  }
  &[aria-selected='true'] {
    background: var(--kasa-surface);
    color: var(--kasa-fg);
    box-shadow:
      inset 0 -3px 0 var(--kasa-primary),
      0 1px 3px rgba(15, 23, 42, 0.2);
  }
`;

export interface TabItem<Key extends string> {
  key: Key;
  label: string;
  /** The tab's panel, when the caller lists every panel up front (otherwise the selected one is `children`). */
  panel?: ReactNode;
}

/**
 * WAI-ARIA tabs whose selection the caller keeps (in state, or in the URL): a tablist of role=tab buttons (arrow
 * keys, Home and End move between them; only the selected tab is in the Tab order) and the selected role=tabpanel,
 * `data-testid="panel-<key>"`. Only the selected panel is rendered: `children` when given, else its item's `panel`.
 * A `selected` key that is not among the items selects the first.
 */
export function Tabs<Key extends string>({
  label,
  items,
  selected,
  onSelect,
  children,
}: {
  /** The tab list's accessible name. */
  label: string;
  items: ReadonlyArray<TabItem<Key>>;
  selected: Key;
  onSelect: (key: Key) => void;
  /** The selected tab's panel. */
  children?: ReactNode;
}) {
  const baseId = useId();
  const tabs = useRef(new Map<Key, HTMLButtonElement>());
  const current = items.find((item) => item.key === selected) ?? items[0];

  // When the tab list scrolls sideways (on a phone), keep the selected tab in view (e.g. after opening ?tab=keys).
  useEffect(() => {
    tabs.current.get(selected)?.scrollIntoView?.({ block: 'nearest', inline: 'nearest' });
  }, [selected]);

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.key === current?.key);
    const moves: Record<string, number> = {
      ArrowRight: index + 1,
      ArrowLeft: index - 1,
      Home: 0,
      End: items.length - 1,
    };
    const target = moves[event.key];
    if (target === undefined) return;
    event.preventDefault();
    const next = items[(target + items.length) % items.length];
    if (!next) return;
    onSelect(next.key);
    tabs.current.get(next.key)?.focus();
  };

  return (
    <div>
      <List role="tablist" aria-label={label} onKeyDown={onKeyDown}>
        {items.map((item) => {
          const isSelected = item.key === current?.key;
          return (
            <Tab
              key={item.key}
              ref={(node) => {
                if (node) tabs.current.set(item.key, node);
                else tabs.current.delete(item.key);
              }}
              type="button"
              role="tab"
              id={`${baseId}-tab-${item.key}`}
              aria-selected={isSelected}
              aria-controls={`${baseId}-panel-${item.key}`}
              tabIndex={isSelected ? 0 : -1}
              onClick={() => onSelect(item.key)}
            >
              {item.label}
            </Tab>
          );
        })}
      </List>
      {current ? (
        <div
          role="tabpanel"
          id={`${baseId}-panel-${current.key}`}
          aria-labelledby={`${baseId}-tab-${current.key}`}
          data-testid={`panel-${current.key}`}
        >
          {children ?? current.panel}
        </div>
      ) : null}
    </div>
  );
}
