import * as ToastPrimitive from '@radix-ui/react-toast';
import styled from '@emotion/styled';
import { keyframes } from '@emotion/react';
import { TOAST_DURATION_MS, dismissToast, useToasts, type ToastVariant } from './toastStore';
import { useT } from '../i18n/useT';
import { ICON, X } from '@kasa/ui';

const slideIn = keyframes`
  from { transform: translateX(calc(100% + 1rem)); }
  to { transform: translateX(0); }
`;

const Viewport = styled(ToastPrimitive.Viewport)`
  position: fixed;
  bottom: 0;
  right: 0;
  z-index: 100;
  display: flex;
  flex-direction: column;
  gap: 0.5rem;
  width: min(26rem, 100vw);
  max-height: 100vh;
  margin: 0;
  padding: 1rem;
  list-style: none;
  outline: none;
  &:focus-visible {
    outline: 3px solid var(--kasa-focus);
    outline-offset: -3px;
  }
`;

const Root = styled(ToastPrimitive.Root, { shouldForwardProp: (prop) => prop !== 'variant' })<{
  variant: ToastVariant;
}>`
  position: relative;
  display: grid;
  grid-template-columns: 1fr auto;
  gap: 0.25rem 0.75rem;
  padding: 1rem 1.125rem;
  border-radius: var(--kasa-radius);
  border: 1px solid ${({ variant }) => (variant === 'destructive' ? 'var(--kasa-danger)' : 'var(--kasa-border)')};
  background: ${({ variant }) => (variant === 'destructive' ? 'var(--kasa-danger)' : 'var(--kasa-surface)')};
  color: ${({ variant }) => (variant === 'destructive' ? 'var(--kasa-danger-fg)' : 'var(--kasa-fg)')};
  box-shadow: var(--kasa-shadow);
  &[data-state='open'] {
    animation: ${slideIn} 150ms ease-out;
  }
  &[data-swipe='move'] {
    transform: translateX(var(--radix-toast-swipe-move-x));
  }
  &[data-swipe='cancel'] {
    transform: translateX(0);
    transition: transform 200ms ease-out;
  }
  &[data-swipe='end'] {
    transform: translateX(var(--radix-toast-swipe-end-x));
  }
`;

const Title = styled(ToastPrimitive.Title)`
  grid-column: 1;
  font-weight: 700;
`;

const Description = styled(ToastPrimitive.Description)`
  grid-column: 1;
  font-size: 0.9375rem;
`;

const Close = styled(ToastPrimitive.Close)`
  grid-column: 2;
  grid-row: 1 / span 2;
  align-self: start;
  min-width: 2rem;
  min-height: 2rem;
  border: 0;
  border-radius: var(--kasa-radius);
  background: transparent;
  color: inherit;
  font-size: 1.25rem;
  line-height: 1;
  cursor: pointer;
`;

/**
 * The one toast region of the app (Radix Toast): 5000 ms display, swipe right past 50 px to dismiss,
 * F8 moves focus to the notifications.
 */
export function Toaster() {
  const toasts = useToasts();
  const t = useT();
  return (
    <ToastPrimitive.Provider duration={TOAST_DURATION_MS} swipeDirection="right" swipeThreshold={50}>
      {toasts.map(({ id, title, description, open, variant = 'default' }) => (
        <Root
          key={id}
          open={open}
          variant={variant}
          type={variant === 'destructive' ? 'foreground' : 'background'}
          onOpenChange={(isOpen) => {
            if (!isOpen) dismissToast(id);
          }}
          data-testid="toast"
        >
          <Title>{title}</Title>
          {description ? <Description>{description}</Description> : null}
          <Close aria-label={t('toast.dismiss')}>
            <X {...ICON} />
          </Close>
        </Root>
      ))}
      <Viewport hotkey={['F8']} label={t('toast.region')} />
    </ToastPrimitive.Provider>
  );
}
