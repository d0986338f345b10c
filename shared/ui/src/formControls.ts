import styled from '@emotion/styled';
import { fieldStyle } from '@kasa/ui';

// Form controls that few pages draw, in '@kasa/ui/widgets' rather than on every first load.

/** A visible label above its field. */
export const Label = styled.label`
  display: block;
  margin: 0 0 0.25rem;
  font-weight: 600;
`;

/** A multi-line input in a monospace font (request bodies, code). */
export const TextArea = styled.textarea`
  ${fieldStyle}
  width: 100%;
  min-height: 8rem;
  padding: 0.5rem 0.625rem;
  font-family: ui-monospace, SFMono-Regular, Menlo, Consolas, monospace;
  font-size: 0.875rem;
`;
