import styled from '@emotion/styled';
import { useId, useRef, type KeyboardEvent, type ReactNode } from 'react';

const List = styled.div`
  display: grid;
  grid-auto-flow: column;
  grid-auto-columns: 1fr;
  gap: 0.25rem;
  padding: 0.25rem;
  margin-bottom: 1.5rem;
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface-muted);
`;

const Tab = styled.button`
  min-height: 2.5rem;
  border: 0;
  border-radius: var(--kasa-radius);
  background: transparent;
  color: var(--kasa-muted);
  font: inherit;
  font-weight: 600;
  cursor: pointer;
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
  panel: ReactNode;
}

/**
 * WAI-ARIA tabs: a tablist of role=tab buttons (arrow keys, Home and End move between them; only the selected
 * tab is in the Tab order) and the selected role=tabpanel.
 */
export function Tabs<Key extends string>({
  label,
  items,
  selected,
  onSelect,
}: {
  label: string;
  items: ReadonlyArray<TabItem<Key>>;
  selected: Key;
  onSelect: (key: Key) => void;
}) {
  const baseId = useId();
  const tabs = useRef(new Map<Key, HTMLButtonElement>());
  const current = items.find((item) => item.key === selected) ?? items[0];

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    const index = items.findIndex((item) => item.key === selected);
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
        <div role="tabpanel" id={`${baseId}-panel-${current.key}`} aria-labelledby={`${baseId}-tab-${current.key}`}>
          {current.panel}
        </div>
      ) : null}
    </div>
  );
}
