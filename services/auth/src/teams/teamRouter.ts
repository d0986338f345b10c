import { CreateTeamRequest, InviteTeamMemberRequest, UpdateTeamMemberRequest } from '@kasa/contracts';
import { identityOf, parseInput, requestIdOf, requireIdentity } from '@kasa/service-kit';
import { Router } from 'express';
import type { TeamService } from './teamService';

/**
 * /api/developer/team (the caller's team) and /api/developer/invitations (invitations addressed to the caller's
 * email). The gateway lets only access tokens through here, like the key routes: an API key cannot manage a team.
 */
export function createTeamRouter(teams: TeamService): Router {
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
    await teams.deleteTeam(identityOf(res).userId, requestIdOf(req));
    res.status(204).end();
  });

  router.post('/api/developer/team/invitations', async (req, res) => {
    const input = parseInput(InviteTeamMemberRequest, req.body);
    res.status(201).json(await teams.invite(identityOf(res).userId, input));
  });
  router.delete('/api/developer/team/invitations/:id', async (req, res) => {
    await teams.revokeInvitation(identityOf(res).userId, req.params.id);
    res.status(204).end();
  });

  router.patch('/api/developer/team/members/:userId', async (req, res) => {
    const { role } = parseInput(UpdateTeamMemberRequest, req.body);
    res.json(await teams.changeRole(identityOf(res).userId, req.params.userId, role));
  });
  router.delete('/api/developer/team/members/:userId', async (req, res) => {
    await teams.removeMember(identityOf(res).userId, req.params.userId);
    res.status(204).end();
  });

  router.get('/api/developer/invitations', async (_req, res) => {
    res.json(await teams.invitationsFor(identityOf(res).userId));
  });
  router.post('/api/developer/invitations/:id/accept', async (req, res) => {
    res.json(await teams.accept(identityOf(res).userId, req.params.id));
  });
  router.delete('/api/developer/invitations/:id', async (req, res) => {
    await teams.decline(identityOf(res).userId, req.params.id);
    res.status(204).end();
  });

  return router;
}
