import styled from '@emotion/styled';
import { useId, useState, type FormEvent, type ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { describeFailure, isApiError, tierLabel, useAuth } from '@kasa/api-client';
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
import { formatTime } from '../status/serviceState';
import { canChangeRole, canManageTeam, canRemoveMember, ROLE_TEXT } from '../team/teamAccess';
import { ConfirmDialog } from '../ui/ConfirmDialog';
import { Badge, Button, Card, InlineError, Label, Muted, Row, Select, TextInput } from '../ui/controls';
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

/** What a failed step says: what was attempted, the API's answer, and what to do. */
function Failure({ what, error, hint }: { what: string; error: unknown; hint?: string }) {
  return (
    <InlineError role="alert" style={{ marginBottom: '0.75rem' }}>
      <p>{`Could not ${what}: ${sentence(describeFailure(error))}${hint ? ` ${hint}` : ''}`}</p>
    </InlineError>
  );
}

function PricingNote() {
  return (
    <>
      Teams share API keys and one monthly quota, and are part of the Enterprise plan.{' '}
      <Link to="/pricing">See the plans on the Pricing page</Link> to upgrade. People on any plan can join a team they
      are invited to.
    </>
  );
}

function CreateTeamForm() {
  const nameId = useId();
  const create = useCreateTeam();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = name.trim();
    if (trimmed.length < 2) return setProblem('Give the team a name of 2 to 60 characters.');
    setProblem(null);
    create.mutate({ name: trimmed });
  };

  const refusedByPlan = isApiError(create.error) && create.error.status === 403;
  return (
    <form onSubmit={onSubmit} noValidate aria-labelledby="create-team-title">
      <div style={{ marginBottom: '1rem' }}>
        <Label htmlFor={nameId}>Team name</Label>
        <TextInput
          id={nameId}
          value={name}
          maxLength={60}
          placeholder="e.g. Adinkra Labs"
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
              {sentence(describeFailure(create.error))} <Link to="/pricing">See the plans</Link>.
            </p>
          </InlineError>
        ) : (
          <Failure what="create the team" error={create.error} />
        )
      ) : null}
      <Button type="submit" disabled={create.isPending}>
        {create.isPending ? 'Creating…' : 'Create team'}
      </Button>
    </form>
  );
}

function InvitationsForMe({ confirm }: { confirm: (pending: Pending) => void }) {
  const invitations = useMyInvitations();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const { user } = useAuth();

  return (
    <Card aria-labelledby="my-invitations-title">
      <h2 id="my-invitations-title">Invitations</h2>
      {invitations.isPending ? <Loading>Loading your invitations…</Loading> : null}
      {invitations.isError ? (
        <LoadError what="your invitations" error={invitations.error} onRetry={() => void invitations.refetch()} />
      ) : null}
      {accept.isError ? (
        <Failure what="join the team" error={accept.error} hint="Ask for a new invitation if this one has ended." />
      ) : null}
      {decline.isError ? <Failure what="decline the invitation" error={decline.error} /> : null}
      {invitations.data && invitations.data.invitations.length === 0 ? (
        <Empty testId="no-invitations">
          {`No invitations for you. When a team’s owner or admin invites ${user?.email ?? 'your account’s email'}, the invitation appears here.`}
        </Empty>
      ) : null}
      {invitations.data?.invitations.length ? (
        <Items aria-label="Invitations for you">
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
                    aria-label={`Accept the invitation to “${invitation.team.name}”`}
                  >
                    Accept
                  </Button>
                  <Button
                    type="button"
                    variant="secondary"
                    compact
                    onClick={() =>
                      confirm({
                        title: `Decline the invitation to “${invitation.team.name}”?`,
                        body: <p>The invitation closes. To join later, ask the team for a new one.</p>,
                        confirmLabel: 'Decline invitation',
                        run: () => decline.mutateAsync(invitation.id),
                      })
                    }
                    aria-label={`Decline the invitation to “${invitation.team.name}”`}
                  >
                    Decline
                  </Button>
                </Row>
              </Row>
              <dl>
                <div>
                  <dt>Role</dt>
                  <dd>{ROLE_TEXT[invitation.role]}</dd>
                </div>
                <div>
                  <dt>Invited by</dt>
                  <dd>{invitation.invitedBy}</dd>
                </div>
                <div>
                  <dt>Open until</dt>
                  <dd>{formatTime(invitation.expiresAt)}</dd>
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
  const { user } = useAuth();
  // Without a known tier the form is offered and the API's answer (403 naming the plan) says the rest.
  const mayCreate = !user || user.subscriptionTier === 'enterprise';
  return (
    <Stack>
      <InvitationsForMe confirm={confirm} />
      <Card aria-labelledby="create-team-title">
        <h2 id="create-team-title">Create a team</h2>
        {mayCreate ? (
          <>
            <Muted style={{ marginBottom: '1rem' }}>
              Your team shares API keys and your Enterprise plan’s monthly quota. You become its owner; invite people by
              email once it exists.
            </Muted>
            <CreateTeamForm />
          </>
        ) : (
          <Muted data-testid="team-enterprise-note">
            {`You are on the ${tierLabel(user?.subscriptionTier)} plan. `}
            <PricingNote />
          </Muted>
        )}
      </Card>
    </Stack>
  );
}

function InviteForm() {
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
      <h3 id="invite-title">Invite someone</h3>
      <Row style={{ alignItems: 'flex-end', marginBottom: '0.75rem' }}>
        <Field>
          <Label htmlFor={ids.email}>Email address</Label>
          <TextInput
            id={ids.email}
            type="email"
            autoComplete="off"
            value={email}
            maxLength={254}
            placeholder="name@example.com"
            onChange={(event) => setEmail(event.target.value)}
            disabled={invite.isPending}
          />
        </Field>
        <div>
          <Label htmlFor={ids.role}>Role</Label>
          <Select
            id={ids.role}
            value={role}
            onChange={(event) => setRole(event.target.value as AssignableTeamRole)}
            disabled={invite.isPending}
            style={{ minHeight: '2.5rem' }}
          >
            <option value="member">Member</option>
            <option value="admin">Admin</option>
          </Select>
        </div>
        <Button type="submit" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Invite'}
        </Button>
      </Row>
      {invite.isError ? <Failure what="invite" error={invite.error} /> : null}
      {sentTo ? (
        <Muted role="status" data-testid="invite-sent">
          {`Invited ${sentTo}. No email is sent: they find the invitation in the Team tab of their developer portal, signed in with that address.`}
        </Muted>
      ) : null}
    </form>
  );
}

function OpenInvitations({ team, confirm }: { team: TeamResponse; confirm: (pending: Pending) => void }) {
  const revoke = useRevokeTeamInvitation();
  return (
    <Card aria-labelledby="team-invitations-title">
      <h2 id="team-invitations-title">Invitations</h2>
      <InviteForm />
      {revoke.isError ? <Failure what="revoke the invitation" error={revoke.error} /> : null}
      {team.invitations.length === 0 ? (
        <Empty testId="no-team-invitations">No open invitations. Invite someone above.</Empty>
      ) : (
        <Items aria-label="Open invitations">
          {team.invitations.map((invitation) => (
            <li key={invitation.id} data-testid="team-invitation" data-email={invitation.email}>
              <Row style={{ justifyContent: 'space-between' }}>
                <strong style={{ overflowWrap: 'anywhere' }}>{invitation.email}</strong>
                <Button
                  type="button"
                  variant="danger"
                  compact
                  aria-label={`Revoke the invitation to ${invitation.email}`}
                  onClick={() =>
                    confirm({
                      title: `Revoke the invitation to ${invitation.email}?`,
                      body: <p>They can no longer join with it. You can invite them again later.</p>,
                      confirmLabel: 'Revoke invitation',
                      run: () => revoke.mutateAsync(invitation.id),
                    })
                  }
                >
                  Revoke
                </Button>
              </Row>
              <dl>
                <div>
                  <dt>Role</dt>
                  <dd>{ROLE_TEXT[invitation.role]}</dd>
                </div>
                <div>
                  <dt>Invited by</dt>
                  <dd>{invitation.invitedBy}</dd>
                </div>
                <div>
                  <dt>Open until</dt>
                  <dd>{formatTime(invitation.expiresAt)}</dd>
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
  const changeRole = useChangeTeamRole();
  const isMe = member.userId === me;
  return (
    <li data-testid="team-member" data-username={member.username} data-role={member.role}>
      <Row style={{ justifyContent: 'space-between' }}>
        <Row>
          <strong>{member.username}</strong>
          {isMe ? <Badge>You</Badge> : null}
        </Row>
        {canRemoveMember(team, me, member) ? (
          <Button
            type="button"
            variant="danger"
            compact
            onClick={() => onRemove(member)}
            aria-label={`Remove ${member.username} from the team`}
          >
            Remove
          </Button>
        ) : null}
      </Row>
      <dl>
        <div>
          <dt>Email</dt>
          <dd>{member.email}</dd>
        </div>
        <div>
          <dt>Role</dt>
          <dd>
            {canChangeRole(team, member) ? (
              <Select
                value={member.role}
                disabled={changeRole.isPending}
                aria-label={`Role of ${member.username}`}
                onChange={(event) =>
                  changeRole.mutate({ userId: member.userId, role: event.target.value as AssignableTeamRole })
                }
              >
                <option value="member">Member</option>
                <option value="admin">Admin</option>
              </Select>
            ) : (
              ROLE_TEXT[member.role]
            )}
          </dd>
        </div>
        <div>
          <dt>Joined</dt>
          <dd>{formatTime(member.joinedAt)}</dd>
        </div>
      </dl>
      {changeRole.isError ? <Failure what={`change the role of ${member.username}`} error={changeRole.error} /> : null}
    </li>
  );
}

/** In a team: what it is, who is in it, its invitations (owners and admins), and leaving or deleting it. */
function TeamView({ team, confirm }: { team: TeamResponse; confirm: (pending: Pending) => void }) {
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
      title: `Delete “${name}”?`,
      body: (
        <>
          <p>
            {`Every team key${activeTeamKeys === undefined ? '' : ` (${activeTeamKeys} active)`} is revoked at once: programs using them are refused within seconds. `}
            Members and open invitations are released. Personal keys are not affected.
          </p>
          <p>This cannot be undone.</p>
        </>
      ),
      confirmLabel: 'Delete team',
      run: () => del.mutateAsync(),
    });

  const askLeave = () =>
    confirm({
      title: `Leave “${name}”?`,
      body: <p>You lose the team’s keys at once. To come back, ask an owner or admin for a new invitation.</p>,
      confirmLabel: 'Leave team',
      run: () => (me ? leave.mutateAsync(me) : Promise.resolve()),
    });

  const askRemove = (member: TeamMember) =>
    confirm({
      title: `Remove ${member.username} from “${name}”?`,
      body: (
        <p>They lose the team’s keys at once. The keys keep working for everyone else. You can invite them again.</p>
      ),
      confirmLabel: 'Remove member',
      run: () => remove.mutateAsync(member.userId),
    });

  return (
    <Stack>
      <Card aria-labelledby="team-title" data-testid="team-summary">
        <h2 id="team-title">{name}</h2>
        <Facts>
          <div>
            <dt>Plan</dt>
            <dd data-testid="team-plan">{tierLabel(team.team.tier)}</dd>
          </div>
          <div>
            <dt>Your role</dt>
            <dd data-testid="team-role">{ROLE_TEXT[team.role]}</dd>
          </div>
          <div>
            <dt>Created</dt>
            <dd>{formatTime(team.team.createdAt)}</dd>
          </div>
        </Facts>
        <Muted style={{ marginBottom: '1rem' }}>
          {canManageTeam(team.role)
            ? 'Members share the team’s keys (create them in the Keys tab) and one monthly quota on the team’s plan.'
            : 'You can use the team’s keys (listed in the Keys tab); its owner and admins create and revoke them.'}
        </Muted>
        {del.isError ? <Failure what="delete the team" error={del.error} /> : null}
        {leave.isError ? <Failure what="leave the team" error={leave.error} /> : null}
        {team.role === 'owner' ? (
          <Button type="button" variant="danger" onClick={askDelete}>
            Delete team
          </Button>
        ) : (
          <Button type="button" variant="secondary" onClick={askLeave}>
            Leave team
          </Button>
        )}
      </Card>
      <Card aria-labelledby="team-members-title">
        <h2 id="team-members-title">{`Members (${team.members.length})`}</h2>
        {remove.isError ? <Failure what="remove the member" error={remove.error} /> : null}
        <Items aria-label="Team members">
          {team.members.map((member) => (
            <MemberItem key={member.userId} team={team} member={member} me={me} onRemove={askRemove} />
          ))}
        </Items>
      </Card>
      {canManageTeam(team.role) ? <OpenInvitations team={team} confirm={confirm} /> : null}
    </Stack>
  );
}

/** Team (Enterprise): the caller's team and its members and invitations, or the invitations addressed to them. */
export default function TeamTab() {
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
      {team.isPending ? <Loading>Loading your team…</Loading> : null}
      {team.isError ? <LoadError what="your team" error={team.error} onRetry={() => void team.refetch()} /> : null}
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
