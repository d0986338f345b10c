import styled from '@emotion/styled';
import { tierLabel, useAuth } from '@kasa/api-client';
import { PLANS } from '@kasa/contracts/src/plans';
import { answersFromNotes, serverGaps } from '@kasa/ui/serverOffers';
import { usePlans } from '../api/plans';
import { useServerState } from '../api/serverOffers';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { usePlanText } from '../i18n/usePlanText';
import { PAGES_LOADERS } from '../i18n/pages/catalogues';
import { usePagesT } from '../i18n/pages/usePagesT';
import { withCatalogue } from '../i18n/withCatalogue';
import type { NotifyProps } from '../notify';
import { EnterpriseInquiryDialog } from '../pricing/EnterpriseInquiryDialog';
import { PlanCard } from '../pricing/PlanCard';
import { UpgradeConfirmDialog } from '../pricing/UpgradeConfirmDialog';
import { useUpgrade } from '../pricing/useUpgrade';
import { Actions, Badge, Button, ButtonLink, Card, Eyebrow, Grid, Hero, Lead, Page, Section, Title } from '../ui';

const TierLine = styled.p`
  margin: 0 0 1.5rem;
  font-weight: 600;
`;

const Plans = styled(Grid)`
  grid-template-columns: repeat(auto-fit, minmax(17rem, 1fr));
  align-items: stretch;
`;

const ServerNote = styled.p`
  margin: 1rem 0 0;
  color: var(--kasa-muted);
  text-align: center;
`;

const Faq = styled.dl`
  max-width: 46rem;
  margin: 1.5rem auto 0;
  dt {
    margin: 1.25rem 0 0.25rem;
    font-weight: 700;
  }
  dd {
    margin: 0;
    color: var(--kasa-muted);
  }
`;

/**
 * Route `/pricing`: the three plans with a working upgrade, the premium add-ons and the FAQ. Each plan says what of it
 * this server cannot deliver now (GET /api/chat/capabilities and /api/voice/status), and so does the upgrade before
 * a payment; while those are unknown (or failed) the plans show as they are.
 */
function PricingPage({ notify }: NotifyProps) {
  const t = usePagesT();
  const planText = usePlanText();
  const describeFailure = useDescribeFailure();
  const { price } = useFormats();
  const { user, isAuthenticated } = useAuth();
  const plans = usePlans();
  const { choose, processing, ready, inquiry, confirmation } = useUpgrade({ notify });
  const server = useServerState();
  const currentTier = isAuthenticated ? user?.subscriptionTier : undefined;

  return (
    <Page>
      <Hero aria-labelledby="pricing-title">
        <Eyebrow>{t('pricing.eyebrow')}</Eyebrow>
        <Title id="pricing-title">{t('pricing.title')}</Title>
        <Lead>{t('pricing.lead')}</Lead>
        <TierLine>
          {t('pricing.currentTier')} <Badge data-testid="pricing-tier">{tierLabel(currentTier).toUpperCase()}</Badge>
        </TierLine>
        <Actions>
          <ButtonLink to="/">{t('common.backHome')}</ButtonLink>
          <ButtonLink to="/chat" variant="primary">
            {t('pricing.goToChat')}
          </ButtonLink>
        </Actions>
      </Hero>

      {plans.isPending ? (
        <p role="status">{t('common.loadingPlans')}</p>
      ) : plans.isError ? (
        <Card as="div" role="alert">
          <h2>{t('pricing.loadFailed')}</h2>
          <p>{describeFailure(plans.error)}</p>
          <Button type="button" onClick={() => void plans.refetch()}>
            {t('pricing.retry')}
          </Button>
        </Card>
      ) : (
        <>
          <section aria-label={t('pricing.plans')} data-server-state={server.settled ? 'settled' : 'pending'}>
            <Plans>
              {plans.data.plans.map((plan) => (
                <PlanCard
                  key={plan.id}
                  plan={plan}
                  isCurrent={plan.id === (currentTier ?? 'free')}
                  processing={processing === plan.id}
                  disabled={!ready || (processing !== null && processing !== plan.id)}
                  onChoose={(chosen) => void choose(chosen)}
                  gaps={serverGaps(PLANS[plan.id].features, server)}
                />
              ))}
            </Plans>
            {answersFromNotes(server) ? <ServerNote data-testid="server-notes">{t('offers.notes')}</ServerNote> : null}
          </section>
          {inquiry ? (
            <EnterpriseInquiryDialog
              sending={inquiry.sending}
              onSend={inquiry.send}
              onClose={inquiry.close}
              gaps={serverGaps(PLANS[inquiry.plan.id].features, server)}
            />
          ) : null}
          {confirmation ? (
            <UpgradeConfirmDialog
              planName={confirmation.plan.name}
              gaps={confirmation.gaps}
              answersFromNotes={confirmation.answersFromNotes}
              onContinue={confirmation.proceed}
              onClose={confirmation.close}
            />
          ) : null}

          <Section aria-labelledby="addons-title">
            <h2 id="addons-title">{t('pricing.addOns.title')}</h2>
            <p>{t('pricing.addOns.text')}</p>
            <Grid>
              {plans.data.addOns.map((addOn) => (
                <Card key={addOn.id}>
                  <h2>{planText(addOn.name)}</h2>
                  <p>
                    <strong>{price(addOn.price)}</strong> {t('pricing.addOnPrice', { period: planText(addOn.period) })}
                  </p>
                  <p>{planText(addOn.description)}</p>
                </Card>
              ))}
            </Grid>
          </Section>

          <Section aria-labelledby="faq-title" id="faq">
            <h2 id="faq-title">{t('pricing.faq.title')}</h2>
            <Faq>
              {plans.data.faq.map((entry) => (
                <div key={entry.question}>
                  <dt>{planText(entry.question)}</dt>
                  <dd>{planText(entry.answer)}</dd>
                </div>
              ))}
            </Faq>
          </Section>
        </>
      )}
    </Page>
  );
}

export default withCatalogue(PricingPage, PAGES_LOADERS);
