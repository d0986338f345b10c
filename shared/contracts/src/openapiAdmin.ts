import {
  AuditCsvQuery,
  AuditPage,
  AuditQuery,
  ChangePlanRequest,
  PeopleSearchQuery,
  PeopleSearchResponse,
  PersonResponse,
  PlanChangeResponse,
  RestorePersonRequest,
  SuspendPersonRequest,
  SuspensionResponse,
} from './admin';
import type { Operation } from './openapi';
import { z } from './zod';

const TAG = 'Operators';
const personId = { id: z.string().openapi({ description: 'The account id' }) };

/**
 * The operators' People and audit log operations (access tokens of operators only; to anyone else each is a 404, as an
 * unknown path). Operators, inquiries and Enterprise contracts: services/auth/README.md#operators.
 */
export const adminOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/admin/people',
    summary: 'Operators: search people by id, e-mail (prefix, with an @) or username (prefix), a page at a time',
    tag: TAG,
    auth: true,
    query: PeopleSearchQuery,
    response: PeopleSearchResponse,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/people/{id}',
    summary: 'Operators: one person: plan, this month’s allowance, API keys (never secrets), team, last sign-in',
    tag: TAG,
    auth: true,
    params: personId,
    response: PersonResponse,
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/admin/people/{id}/suspend',
    summary: 'Operators: suspend a person (with a reason): their tokens and API keys fail at once, sign-in is refused',
    tag: TAG,
    auth: true,
    params: personId,
    body: SuspendPersonRequest,
    response: SuspensionResponse,
    successStatus: 200,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/admin/people/{id}/restore',
    summary: 'Operators: lift a suspension',
    tag: TAG,
    auth: true,
    params: personId,
    body: RestorePersonRequest,
    bodyOptional: true,
    response: SuspensionResponse,
    successStatus: 200,
    errors: [404, 409],
  },
  {
    method: 'post',
    path: '/api/admin/people/{id}/plan',
    summary: 'Operators: change a person’s plan with a reason (409 over a subscription Stripe or Paystack renews)',
    tag: TAG,
    auth: true,
    params: personId,
    body: ChangePlanRequest,
    response: PlanChangeResponse,
    successStatus: 200,
    errors: [404, 409],
  },
  {
    method: 'get',
    path: '/api/admin/audit',
    summary: 'Operators: the audit log, newest first, by actor, target, action and time window',
    tag: TAG,
    auth: true,
    query: AuditQuery,
    response: AuditPage,
    errors: [404],
  },
  {
    method: 'get',
    path: '/api/admin/audit.csv',
    summary: 'Operators: the audit log with the same filters as a CSV file (at most 10,000 rows)',
    tag: TAG,
    auth: true,
    query: AuditCsvQuery,
    document: { contentType: 'text/csv' },
    errors: [404],
  },
];
