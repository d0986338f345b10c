import styled from '@emotion/styled';
import type { Translate } from '../i18n/useT';

/** A row of attachments (pending in the composer, or sent with a message). */
export const ChipList = styled.ul`
  display: flex;
  flex-wrap: wrap;
  gap: 0.5rem;
  margin: 0;
  padding: 0;
  list-style: none;
`;

/** One attachment: its preview or icon, its name and size, and its actions. */
export const Chip = styled.li`
  display: grid;
  grid-template-columns: auto minmax(0, 1fr) auto;
  align-items: center;
  gap: 0.5rem;
  max-width: min(18rem, 100%);
  padding: 0.375rem 0.5rem;
  border: 1px solid var(--kasa-border);
  border-radius: var(--kasa-radius);
  background: var(--kasa-surface);
  color: var(--kasa-fg);
  font-size: 0.8125rem;
  &[data-state='failed'] {
    border-color: var(--kasa-danger);
  }
`;

export const Preview = styled.span`
  display: inline-flex;
  align-items: center;
  justify-content: center;
  width: 2.5rem;
  height: 2.5rem;
  overflow: hidden;
  border-radius: calc(var(--kasa-radius) * 0.75);
  background: var(--kasa-surface-muted);
  img {
    width: 100%;
    height: 100%;
    object-fit: cover;
  }
`;

export const ChipText = styled.span`
  display: flex;
  flex-direction: column;
  min-width: 0;
  /* A file's name takes its own direction (dir="auto"): cut at its end in either direction of the page. */
  strong {
    overflow: hidden;
    font-weight: 600;
    text-overflow: ellipsis;
    white-space: nowrap;
    text-align: match-parent;
  }
  span {
    color: var(--kasa-muted);
  }
`;

/** "2.4 MB", "820 KB", "12 bytes", with the numbers in the person's language. */
export function sizeText(t: Translate, bytes: number): string {
  if (bytes >= 1024 * 1024) return t('attachments.sizeMb', { size: Math.round((bytes / (1024 * 1024)) * 10) / 10 });
  if (bytes >= 1024) return t('attachments.sizeKb', { size: Math.round(bytes / 1024) });
  return t('attachments.sizeBytes', { size: bytes });
}
