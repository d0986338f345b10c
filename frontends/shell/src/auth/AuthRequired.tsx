import styled from '@emotion/styled';
import type { ReactNode } from 'react';
import { useT } from '../i18n/useT';
import { Actions, Card, Muted } from '@kasa/ui';

const Wrapper = styled(Card)`
  max-width: 32rem;
  margin: 3rem auto;
  text-align: center;
`;

/** The card shown to signed-out visitors of a page that needs sign-in. */
export function AuthRequired({ message, action }: { message: string; action?: ReactNode }) {
  const t = useT();
  return (
    <Wrapper aria-labelledby="auth-required-title" data-testid="auth-required">
      <h1 id="auth-required-title">{t('authRequired.title')}</h1>
      <Muted>{message}</Muted>
      {action ? <Actions style={{ justifyContent: 'center' }}>{action}</Actions> : null}
    </Wrapper>
  );
}
