import styled from '@emotion/styled';
import type { Method } from '../openapi/operations';

const Tag = styled.span`
  display: inline-block;
  min-width: 4.25rem;
  padding: 0.0625rem 0.375rem;
  border: 2px solid var(--kasa-primary);
  border-radius: calc(var(--kasa-radius) / 2);
  color: var(--kasa-fg);
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.8125rem;
  font-weight: 700;
  text-align: center;
`;

/** An HTTP method as a tag; its text says it all, so colour carries nothing on its own. */
export function MethodTag({ method }: { method: Method }) {
  return <Tag data-method={method}>{method}</Tag>;
}
