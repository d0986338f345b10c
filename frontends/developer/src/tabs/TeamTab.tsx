import { allows } from '@kasa/contracts/src/plans';
import styled from '@emotion/styled';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { isApiError, tierLabel, useAuth } from '@kasa/api-client';
import type { AssignableTeamRole, TeamMember, TeamResponse } from '@kasa/contracts';
import {
  useAcceptInvitation,
  useApiKeys,
  useChangeTeamRole,
  useCreateTeam,
  useDeclineInvitation,
  useDeleteTeam,
  useInviteTeamMember,
  useMyInvitations,
  useMyTeam,
  useRemoveTeamMember,
  useRevokeTeamInvitation,
} from '../api/developerQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { useFormats } from '../i18n/format';
import { richText } from '@kasa/i18n/richText';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { canChangeRole, canManageTeam, canRemoveMember, ROLE_TEXT } from '../team/teamAccess';
import { TeamSsoSection } from '../team/TeamSsoSection';
import { Button, InlineError, Muted, Select, TextInput } from '@kasa/ui';
import { ConfirmDialog, Label } from '@kasa/ui/widgets';
import { Badge, Card, Row } from '../ui/controls';
import { Empty, LoadError, Loading } from '../ui/States';

/** A destructive step waiting for its confirmation. */
interface Pending {
  title: string;
  body: ReactNode;
  confirmLabel: string;
  run: () => Promise<unknown>;
}

const Stack = styled.div`
  display: flex;
  flex-direction: column;
  gap: 1rem;
`;

const Items = styled.ul`
  list-style: none;
  margin: 0;
  padding: 0;
  display: flex;
  flex-direction: column;
  gap: 0.75rem;
  > li {
    padding: 0.75rem 0 0;
    border-top: 1px solid var(--kasa-border);
  }
  dl {
    display: grid;
    grid-template-columns: repeat(auto-fill, minmax(min(100%, 11rem), 1fr));
    gap: 0.25rem 1rem;
    margin: 0.5rem 0;
  }
  dt {
    color: var(--kasa-muted);
    font-size: 0.8125rem;
  }
  dd {
    margin: 0;
    overflow-wrap: anywhere;
  }
`;

const Facts = styled.dl`
  display: grid;
  grid-template-columns: repeat(auto-fill, minmax(min(100%, 10rem), 1fr));
  gap: 0.25rem 1rem;
  margin: 0 0 1rem;
  dt {
    color: var(--kasa-muted);
    font-size: 0.8125rem;
  }
  dd {
    margin: 0;
    font-weight: 600;
  }
`;

const Field = styled.div`
  flex: 1 1 14rem;
  min-width: 0;
`;

const sentence = (text: string) => (/[.!?]$/.test(text) ? text : `${text}.`);

/** The API's answer to a failed step, as a sentence. */
function useReason(): (error: unknown) => string {
  const describeFailure = useDescribeFailure();
  return (error) => sentence(describeFailure(error));
}

/** What a failed step says: what was attempted, the API's answer, and what to do (`message`). */
function Failure({ message }: { message: string }) {
  return (
    <InlineError role="alert" style={{ marginBottom: '0.75rem' }}>
      <p>{message}</p>
    </InlineError>
  );
}

function PricingNote() {
  const t = usePanelsT();
  return (
    <>
      {richText((parts) => t('team.pricingNote', parts), { link: <Link to="/pricing">{t('team.pricingLink')}</Link> })}
    </>
  );
}

function CreateTeamForm() {
  const t = usePanelsT();
  const reason = useReason();
  const nameId = useId();
  const create = useCreateTeam();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 2) return setProblem(t('team.nameRequired', { min: 2, max: 60 }));
    setProblem(null);
    create.mutate({ name: trimmed });
  };

  const refusedByPlan = isApiError(create.error) && create.error.status === 403;
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="create-team-title">
      <div style={{ marginBottom: '1rem' }}>
        <Label htmlFor={nameId}>{t('team.name')}</Label>
        <TextInput
          id={nameId}
          value={name}
          maxLength={60}
          placeholder={t('team.namePlaceholder')}
          onChange={(event) => setName(event.target.value)}
          disabled={create.isPending}
        />
      </div>
      {problem ? (
        <InlineError role="alert" style={{ marginBottom: '1rem' }}>
          <p>{problem}</p>
        </InlineError>
      ) : null}
      {!problem && create.isError ? (
        refusedByPlan ? (
          <InlineError role="alert" style={{ marginBottom: '1rem' }}>
            <p>
              {richText((parts) => t('team.refusedByPlan', { ...parts, reason: reason(create.error) }), {
                link: <Link to="/pricing">{t('team.seePlans')}</Link>,
              })}
            </p>
          </InlineError>
        ) : (
          <Failure message={t('team.createFailed', { reason: reason(create.error) })} />
        )
      ) : null}
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? t('team.creating') : t('team.create')}
      </Button>
    </form>
  );
}

function InvitationsForMe({ confirm }: { confirm: (pending: Pending) => void }) {
  const t = usePanelsT();
  const formats = useFormats();
  const reason = useReason();
  const describeFailure = useDescribeFailure();
  const invitations = useMyInvitations();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const { user } = useAuth();

  return (
    <Card aria-labelledby="my-invitations-title">
      <h2 id="my-invitations-title">{t('team.invitations')}</h2>
      {invitations.isPending ? <Loading>{t('team.loadingInvitations')}</Loading> : null}
      {invitations.isError ? (
        <LoadError
          message={t('team.invitationsFailed', { reason: describeFailure(invitations.error) })}
          onRetry={() => void invitations.refetch()}
        />
      ) : null}
      {accept.isError ? <Failure message={t('team.joinFailed', { reason: reason(accept.error) })} /> : null}
      {decline.isError ? <Failure message={t('team.declineFailed', { reason: reason(decline.error) })} /> : null}
      {invitations.data && invitations.data.invitations.length === 0 ? (
        <Empty testId="no-invitations">{t('team.noInvitations', { email: user?.email ?? t('team.yourEmail') })}</Empty>
      ) : null}
      {invitations.data?.invitations.length ? (
        <Items aria-label={t('team.invitationsForYou')}>
          {invitations.data.invitations.map((invitation) => (
            <li key={invitation.id} data-testid="my-invitation" data-invitation-id={invitation.id}>
              <Row style={{ justifyContent: 'space-between' }}>
                <strong>{invitation.team.name}</strong>
                <Row>
                  <Button
                    type="button"
                    compact
                    disabled={accept.isPending}
                    onClick={() => accept.mutate(invitation.id)}
                    aria-label={t('team.acceptNamed', { team: invitation.team.name })}
                  >
                    {t('team.accept')}
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    compact
                    onClick={() =>
                      confirm({
                        title: t('team.declineTitle', { team: invitation.team.name }),
                        body: <p>{t('team.declineText')}</p>,
                        confirmLabel: t('team.declineConfirm'),
                        run: () => decline.mutateAsync(invitation.id),
                      })
                    }
                    aria-label={t('team.declineNamed', { team: invitation.team.name })}
                  >
                    {t('team.decline')}
                  </Button>
                </Row>
              </Row>
              <dl>
                <div>
                  <dt>{t('team.role')}</dt>
                  <dd>{t(ROLE_TEXT[invitation.role])}</dd>
                </div>
                <div>
                  <dt>{t('team.invitedBy')}</dt>
                  <dd>{invitation.invitedBy}</dd>
                </div>
                <div>
                  <dt>{t('team.openUntil')}</dt>
                  <dd>{formats.dateTime(invitation.expiresAt)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </Items>
      ) : null}
    </Card>
  );
}

/** Not in a team: invitations addressed to me, and creating a team (Enterprise) or where to get the plan. */
function NoTeam({ confirm }: { confirm: (pending: Pending) => void }) {
  const t = usePanelsT();
  const { user } = useAuth();
  // Without a known tier the form is offered and the API's answer (403 naming the plan) says the rest.
  const mayCreate = !user || allows(user.subscriptionTier, 'teams');
  return (
    <Stack>
      <InvitationsForMe confirm={confirm} />
      <Card aria-labelledby="create-team-title">
        <h2 id="create-team-title">{t('team.createTitle')}</h2>
        {mayCreate ? (
          <>
            <Muted style={{ marginBottom: '1rem' }}>{t('team.createIntro')}</Muted>
            <CreateTeamForm />
          </>
        ) : (
          <Muted data-testid="team-enterprise-note">
            {t('team.currentPlan', { plan: tierLabel(user?.subscriptionTier) })} <PricingNote />
          </Muted>
        )}
      </Card>
    </Stack>
  );
}

function InviteForm() {
  const t = usePanelsT();
  const reason = useReason();
  const ids = { email: useId(), role: useId() };
  const invite = useInviteTeamMember();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<AssignableTeamRole>('member');
  const [sentTo, setSentTo] = useState<string | null>(null);

  // The address is checked by the API, whose message is shown as it comes (no second set of rules here).
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setSentTo(null);
    invite.mutate(
      { email: email.trim(), role },
      {
        onSuccess: (invitation) => {
          setEmail('');
          setSentTo(invitation.email);
        },
      },
    );
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="invite-title" style={{ marginBottom: '1rem' }}>
      <h3 id="invite-title">{t('team.inviteTitle')}</h3>
      <Row style={{ alignItems: 'flex-end', marginBottom: '0.75rem' }}>
        <Field>
          <Label htmlFor={ids.email}>{t('team.emailAddress')}</Label>
          <TextInput
            id={ids.email}
            type="email"
            autoComplete="off"
            value={email}
            maxLength={254}
            placeholder={t('team.emailPlaceholder')}
            onChange={(event) => setEmail(event.target.value)}
            disabled={invite.isPending}
          />
        </Field>
        <div>
          <Label htmlFor={ids.role}>{t('team.role')}</Label>
          <Select
            id={ids.role}
            value={role}
            onChange={(event) => setRole(event.target.value as AssignableTeamRole)}
            disabled={invite.isPending}
            style={{ minHeight: '2.5rem' }}
          >
            <option value="member">{t(ROLE_TEXT.member)}</option>
            <option value="admin">{t(ROLE_TEXT.admin)}</option>
          </Select>
        </div>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? t('team.inviting') : t('team.invite')}
        </Button>
      </Row>
      {invite.isError ? <Failure message={t('team.inviteFailed', { reason: reason(invite.error) })} /> : null}
      {sentTo ? (
        <Muted role="status" data-testid="invite-sent">
          {t('team.invited', { email: sentTo })}
        </Muted>
      ) : null}
    </form>
  );
}

function OpenInvitations({ team, confirm }: { team: TeamResponse; confirm: (pending: Pending) => void }) {
  const t = usePanelsT();
  const formats = useFormats();
  const reason = useReason();
  const revoke = useRevokeTeamInvitation();
  return (
    <Card aria-labelledby="team-invitations-title">
      <h2 id="team-invitations-title">{t('team.invitations')}</h2>
      <InviteForm />
      {revoke.isError ? <Failure message={t('team.revokeInvitationFailed', { reason: reason(revoke.error) })} /> : null}
      {team.invitations.length === 0 ? (
        <Empty testId="no-team-invitations">{t('team.noOpenInvitations')}</Empty>
      ) : (
        <Items aria-label={t('team.openInvitations')}>
          {team.invitations.map((invitation) => (
            <li key={invitation.id} data-testid="team-invitation" data-email={invitation.email}>
              <Row style={{ justifyContent: 'space-between' }}>
                <strong style={{ overflowWrap: 'anywhere' }}>{invitation.email}</strong>
                <Button
                  type="button"
                  variant="danger"
                  compact
                  aria-label={t('team.revokeInvitationNamed', { email: invitation.email })}
                  onClick={() =>
                    confirm({
                      title: t('team.revokeInvitationTitle', { email: invitation.email }),
                      body: <p>{t('team.revokeInvitationText')}</p>,
                      confirmLabel: t('team.revokeInvitationConfirm'),
                      run: () => revoke.mutateAsync(invitation.id),
                    })
                  }
                >
                  {t('team.revoke')}
                </Button>
              </Row>
              <dl>
                <div>
                  <dt>{t('team.role')}</dt>
                  <dd>{t(ROLE_TEXT[invitation.role])}</dd>
                </div>
                <div>
                  <dt>{t('team.invitedBy')}</dt>
                  <dd>{invitation.invitedBy}</dd>
                </div>
                <div>
                  <dt>{t('team.openUntil')}</dt>
                  <dd>{formats.dateTime(invitation.expiresAt)}</dd>
                </div>
              </dl>
            </li>
          ))}
        </Items>
      )}
    </Card>
  );
}

function MemberItem({
  team,
  member,
  me,
  onRemove,
}: {
  team: TeamResponse;
  member: TeamMember;
  me: string | undefined;
  onRemove: (member: TeamMember) => void;
}) {
  const t = usePanelsT();
  const formats = useFormats();
  const reason = useReason();
  const changeRole = useChangeTeamRole();
  const isMe = member.userId === me;
  return (
    <li data-testid="team-member" data-username={member.username} data-role={member.role}>
      <Row style={{ justifyContent: 'space-between' }}>
        <Row>
          <strong>{member.username}</strong>
          {isMe ? <Badge>{t('team.you')}</Badge> : null}
        </Row>
        {canRemoveMember(team, me, member) ? (
          <Button
            type="button"
            variant="danger"
            compact
            onClick={() => onRemove(member)}
            aria-label={t('team.removeNamed', { name: member.username })}
          >
            {t('team.remove')}
          </Button>
        ) : null}
      </Row>
      <dl>
        <div>
          <dt>{t('team.email')}</dt>
          <dd>{member.email}</dd>
        </div>
        <div>
          <dt>{t('team.role')}</dt>
          <dd>
            {canChangeRole(team, member) ? (
              <Select
                value={member.role}
                disabled={changeRole.isPending}
                aria-label={t('team.roleOf', { name: member.username })}
                onChange={(event) =>
                  changeRole.mutate({ userId: member.userId, role: event.target.value as AssignableTeamRole })
                }
              >
                <option value="member">{t(ROLE_TEXT.member)}</option>
                <option value="admin">{t(ROLE_TEXT.admin)}</option>
              </Select>
            ) : (
              t(ROLE_TEXT[member.role])
            )}
          </dd>
        </div>
        <div>
          <dt>{t('team.joined')}</dt>
          <dd>{formats.dateTime(member.joinedAt)}</dd>
        </div>
      </dl>
      {changeRole.isError ? (
        <Failure message={t('team.roleFailed', { name: member.username, reason: reason(changeRole.error) })} />
      ) : null}
    </li>
  );
}

/** In a team: what it is, who is in it, its invitations (owners and admins), and leaving or deleting it. */
function TeamView({ team, confirm }: { team: TeamResponse; confirm: (pending: Pending) => void }) {
  const t = usePanelsT();
  const formats = useFormats();
  const reason = useReason();
  const { user } = useAuth();
  const me = user?.id;
  const remove = useRemoveTeamMember();
  const leave = useRemoveTeamMember();
  const del = useDeleteTeam();
  const keys = useApiKeys();
  const name = team.team.name;
  const activeTeamKeys = keys.data?.keys.filter((k) => k.teamId === team.team.id && !k.revokedAt).length;

  const askDelete = () =>
    confirm({
      title: t('team.deleteTitle', { team: name }),
      body: (
        <>
          <p>
            {activeTeamKeys === undefined ? t('team.deleteText') : t('team.deleteTextCount', { count: activeTeamKeys })}
          </p>
          <p>{t('team.cannotUndo')}</p>
        </>
      ),
      confirmLabel: t('team.delete'),
      run: () => del.mutateAsync(),
    });

  const askLeave = () =>
    confirm({
      title: t('team.leaveTitle', { team: name }),
      body: <p>{t('team.leaveText')}</p>,
      confirmLabel: t('team.leave'),
      run: () => (me ? leave.mutateAsync(me) : Promise.resolve()),
    });

  const askRemove = (member: TeamMember) =>
    confirm({
      title: t('team.removeTitle', { name: member.username, team: name }),
      body: <p>{t('team.removeText')}</p>,
      confirmLabel: t('team.removeConfirm'),
      run: () => remove.mutateAsync(member.userId),
    });

  return (
    <Stack>
      <Card aria-labelledby="team-title" data-testid="team-summary">
        <h2 id="team-title">{name}</h2>
        <Facts>
          <div>
            <dt>{t('team.plan')}</dt>
            <dd data-testid="team-plan">{tierLabel(team.team.tier)}</dd>
          </div>
          <div>
            <dt>{t('team.yourRole')}</dt>
            <dd data-testid="team-role">{t(ROLE_TEXT[team.role])}</dd>
          </div>
          <div>
            <dt>{t('team.created')}</dt>
            <dd>{formats.dateTime(team.team.createdAt)}</dd>
          </div>
        </Facts>
        <Muted style={{ marginBottom: '1rem' }}>
          {canManageTeam(team.role) ? t('team.manageNote') : t('team.memberNote')}
        </Muted>
        {del.isError ? <Failure message={t('team.deleteFailed', { reason: reason(del.error) })} /> : null}
        {leave.isError ? <Failure message={t('team.leaveFailed', { reason: reason(leave.error) })} /> : null}
        {team.role === 'owner' ? (
          <Button type="button" variant="danger" onClick={askDelete}>
            {t('team.delete')}
          </Button>
        ) : (
          <Button type="button" variant="secondary" onClick={askLeave}>
            {t('team.leave')}
          </Button>
        )}
      </Card>
      <Card aria-labelledby="team-members-title">
        <h2 id="team-members-title">{t('team.members', { count: team.members.length })}</h2>
        {remove.isError ? <Failure message={t('team.removeFailed', { reason: reason(remove.error) })} /> : null}
        <Items aria-label={t('team.membersList')}>
          {team.members.map((member) => (
            <MemberItem key={member.userId} team={team} member={member} me={me} onRemove={askRemove} />
          ))}
        </Items>
      </Card>
      {canManageTeam(team.role) ? <OpenInvitations team={team} confirm={confirm} /> : null}
      {team.role === 'owner' ? <TeamSsoSection confirm={confirm} /> : null}
    </Stack>
  );
}

/** Team (Enterprise): the caller's team and its members and invitations, or the invitations addressed to them. */
export default function TeamTab() {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const team = useMyTeam();
  const [pending, setPending] = useState<Pending | null>(null);
  const [busy, setBusy] = useState(false);

  const run = async () => {
    if (!pending) return;
    setBusy(true);
    try {
      await pending.run();
    } catch {
      // The card that started it shows the failure (its mutation's error).
    } finally {
      setBusy(false);
      setPending(null);
    }
  };

  return (
    <>
      {team.isPending ? <Loading>{t('team.loading')}</Loading> : null}
      {team.isError ? (
        <LoadError
          message={t('team.failed', { reason: describeFailure(team.error) })}
          onRetry={() => void team.refetch()}
        />
      ) : null}
      {team.data === null ? <NoTeam confirm={setPending} /> : null}
      {team.data ? <TeamView team={team.data} confirm={setPending} /> : null}
      {pending ? (
        <ConfirmDialog
          title={pending.title}
          confirmLabel={pending.confirmLabel}
          busy={busy}
          onCancel={() => setPending(null)}
          onConfirm={() => void run()}
        >
          {pending.body}
        </ConfirmDialog>
      ) : null}
    </>
  );
}
