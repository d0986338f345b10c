/** The company's details; the bracketed values are filled in by the company before publication. */
export const COMPANY = {
  legalName: '[Company legal name]',
  address: '[Registered address]',
  registration: '[Company registration number]',
  jurisdiction: '[Governing jurisdiction]',
  effectiveDate: '[Effective date]',
  dpo: '[Data protection officer contact]',
  supportEmail: 'support@kasa.example',
  helloEmail: 'hello@kasa.example',
} as const;
