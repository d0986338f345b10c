import { CreateTeamRequest, InviteTeamMemberRequest, TeamAuditQuery, UpdateTeamMemberRequest } from '@kasa/contracts';
import { identityOf, parseInput, requestIdOf, requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { AuditLog } from '../audit/auditLog';
import { actorOf } from '../operators/actor';
import { teamAuditPage } from './teamAudit';
import type { TeamService } from './teamService';

/**
 * /api/developer/team (the caller's team) and /api/developer/invitations (invitations addressed to the caller's
 * email). The gateway lets only access tokens through here, like the key routes: an API key cannot manage a team.
 */
export function createTeamRouter(teams: TeamService, audit: Pick<AuditLog, 'page'>): Router {
  const router = Router();
  router.use(['/api/developer/team', '/api/developer/invitations'], requireIdentity(), (_req, res, next) => {
    res.set('Cache-Control', 'no-store');
    next();
  });

  router.post('/api/developer/team', async (req, res) => {
    const input = parseInput(CreateTeamRequest, req.body);
    res.status(201).json(await teams.create(identityOf(res).userId, input));
  });
  router.get('/api/developer/team', async (_req, res) => {
    res.json(await teams.view(identityOf(res).userId));
  });
  router.delete('/api/developer/team', async (req, res) => {
    await teams.deleteTeam(actorOf(req, res), requestIdOf(req));
    res.status(204).end();
  });

  router.post('/api/developer/team/invitations', async (req, res) => {
    const input = parseInput(InviteTeamMemberRequest, req.body);
    res.status(201).json(await teams.invite(actorOf(req, res), input, requestIdOf(req)));
  });
  router.delete('/api/developer/team/invitations/:id', async (req, res) => {
    await teams.revokeInvitation(actorOf(req, res), req.params.id, requestIdOf(req));
    res.status(204).end();
  });

  router.patch('/api/developer/team/members/:userId', async (req, res) => {
    const { role } = parseInput(UpdateTeamMemberRequest, req.body);
    res.json(await teams.changeRole(actorOf(req, res), req.params.userId, role, requestIdOf(req)));
  });
  router.delete('/api/developer/team/members/:userId', async (req, res) => {
    await teams.removeMember(actorOf(req, res), req.params.userId, requestIdOf(req));
    res.status(204).end();
  });

  router.get('/api/developer/team/audit', async (req, res) => {
    const query = parseInput(TeamAuditQuery, req.query, 'query');
    res.json(await teamAuditPage({ teams, audit }, identityOf(res).userId, query));
  });

  router.get('/api/developer/invitations', async (_req, res) => {
    res.json(await teams.invitationsFor(identityOf(res).userId));
  });
  router.post('/api/developer/invitations/:id/accept', async (req, res) => {
    res.json(await teams.accept(actorOf(req, res), req.params.id, requestIdOf(req)));
  });
  router.delete('/api/developer/invitations/:id', async (req, res) => {
    await teams.decline(actorOf(req, res), req.params.id, requestIdOf(req));
    res.status(204).end();
  });

  return router;
}
