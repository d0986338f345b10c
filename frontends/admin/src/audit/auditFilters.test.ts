import { AUDIT_ACTIONS } from '@kasa/contracts';
import { auditUrl } from '../api/adminApi';
import {
  AUDIT_ACTION_LIST,
  csvFileName,
  EMPTY_FORM,
  filtersFromForm,
  formFromSearch,
  searchFromForm,
} from './auditFilters';

describe('the audit log filters', () => {
  it('offers every action the contracts record', () => {
    expect(AUDIT_ACTIONS.filter((action) => !AUDIT_ACTION_LIST.includes(action))).toEqual([]);
  });

  it('reads the form from the address and writes only what is filled in', () => {
    const search = new URLSearchParams('actor=%20abc%20&action=plan.changed&from=2026-11-01&to=bad&target=');
    const form = formFromSearch(search);
    expect(form).toEqual({ actor: 'abc', target: '', action: 'plan.changed', from: '2026-11-01', to: '' });
    expect(searchFromForm(form).toString()).toBe('actor=abc&action=plan.changed&from=2026-11-01');
    expect(formFromSearch(new URLSearchParams('action=user.deleted')).action).toBe('');
  });

  it('asks for whole UTC days, from the start of the first to the end of the last', () => {
    expect(filtersFromForm({ ...EMPTY_FORM, from: '2026-11-01', to: '2026-11-30', target: 'email:a@b.c' })).toEqual({
      filters: { target: 'email:a@b.c', from: '2026-11-01T00:00:00.000Z', to: '2026-11-30T23:59:59.999Z' },
    });
    expect(filtersFromForm(EMPTY_FORM)).toEqual({ filters: {} });
  });

  it('refuses a window that ends before it starts or is longer than the API reads', () => {
    expect(filtersFromForm({ ...EMPTY_FORM, from: '2026-11-02', to: '2026-11-01' })).toEqual({ problem: 'range' });
    expect(filtersFromForm({ ...EMPTY_FORM, from: '2025-01-01', to: '2026-11-01' })).toEqual({ problem: 'window' });
    expect(filtersFromForm({ ...EMPTY_FORM, from: '2026-11-01', to: '2026-11-01' })).toHaveProperty('filters');
  });

  it('exports the same filters as the page shows, without paging', () => {
    const filters = { actor: 'op1', action: 'user.suspended' as const, from: '2026-11-01T00:00:00.000Z' };
    expect(auditUrl(filters, { csv: true })).toBe(
      '/api/admin/audit.csv?actor=op1&action=user.suspended&from=2026-11-01T00%3A00%3A00.000Z',
    );
    expect(auditUrl(filters, { cursor: 'next' })).toBe(
      '/api/admin/audit?actor=op1&action=user.suspended&from=2026-11-01T00%3A00%3A00.000Z&cursor=next&limit=50',
    );
    expect(csvFileName({ ...EMPTY_FORM, from: '2026-11-01', to: '2026-11-30' })).toBe(
      'kasa-audit-2026-11-01-2026-11-30.csv',
    );
    expect(csvFileName(EMPTY_FORM)).toBe('kasa-audit.csv');
  });
});
