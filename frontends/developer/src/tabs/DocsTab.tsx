import styled from '@emotion/styled';
import { useMemo } from 'react';
import { OPENAPI_URL } from '../api/developerApi';
import { useOpenApi } from '../api/developerQueries';
import { useDescribeFailure } from '../i18n/describeFailure';
import { NONE } from '../i18n/format';
import { richText } from '@kasa/i18n/richText';
import { usePanelsT } from '../i18n/panels/usePanelsT';
import { groupByTag, listOperations, type FieldDoc, type OperationDoc } from '../openapi/operations';
import { schemaWordsFor } from '../openapi/schemaWords';
import { Muted } from '@kasa/ui';
import { Card } from '../ui/controls';
import { Empty, LoadError, Loading } from '../ui/States';
import { MethodTag } from '../ui/MethodTag';

const Operation = styled.details`
  border-top: 1px solid var(--kasa-border);
  padding: 0.5rem 0;
  summary {
    display: flex;
    flex-wrap: wrap;
    align-items: baseline;
    gap: 0.25rem 0.75rem;
    cursor: pointer;
    padding: 0.25rem 0;
  }
  code {
    font-size: 0.9375rem;
    word-break: break-all;
  }
  h4 {
    margin: 0.75rem 0 0.25rem;
    font-size: 0.9375rem;
  }
`;

const Table = styled.table`
  width: 100%;
  border-collapse: collapse;
  font-size: 0.875rem;
  th,
  td {
    padding: 0.25rem 0.5rem;
    border-bottom: 1px solid var(--kasa-border);
    text-align: left;
    vertical-align: top;
  }
  th {
    font-weight: 600;
  }
`;

/** An operation's description: paragraphs separated by blank lines. */
const Description = styled.p`
  margin: 0.5rem 0;
  white-space: pre-line;
`;

const TableScroll = styled.div`
  overflow-x: auto;
`;

/** The header every authenticated call carries, and the shape of every error (code, the same in every language). */
const AUTH_HEADER = 'Authorization: Bearer ksk_…';
const AUTH_PREFIX = 'Authorization: Bearer';
const ERROR_SHAPE = '{ "message", "code", "details", "requestId" }';

function Fields({ caption, fields }: { caption: string; fields: FieldDoc[] }) {
  const t = usePanelsT();
  return (
    <TableScroll>
      <Table>
        <caption style={{ textAlign: 'left', fontWeight: 600, padding: '0.5rem 0 0.25rem' }}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">{t('docs.field')}</th>
            <th scope="col">{t('docs.type')}</th>
            <th scope="col">{t('docs.required')}</th>
            <th scope="col">{t('docs.limits')}</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.name}>
              <td>
                <code>{field.name}</code>
              </td>
              <td>{field.type}</td>
              <td>{field.required ? t('docs.yes') : t('docs.no')}</td>
              <td>{[field.constraints, field.description].filter(Boolean).join('. ') || NONE}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </TableScroll>
  );
}

function OperationDetails({ operation }: { operation: OperationDoc }) {
  const t = usePanelsT();
  const bearer = `${AUTH_PREFIX} <${t('docs.credential')}>`;
  return (
    <Operation data-testid="doc-operation" data-operation={operation.id}>
      <summary>
        <MethodTag method={operation.method} />
        <code>{operation.path}</code>
        <span>{operation.summary}</span>
      </summary>
      {operation.description ? <Description>{operation.description}</Description> : null}
      <p style={{ margin: '0.5rem 0' }}>
        {richText((values) => t('docs.auth', values), {
          label: <strong>{t('docs.authLabel')}</strong>,
          credential: operation.auth ? bearer : t('docs.authNone'),
        })}
      </p>
      {operation.pathParams.length ? <Fields caption={t('docs.pathParams')} fields={operation.pathParams} /> : null}
      {operation.queryParams.length ? <Fields caption={t('docs.queryParams')} fields={operation.queryParams} /> : null}
      {operation.headerParams.length ? <Fields caption={t('docs.headers')} fields={operation.headerParams} /> : null}
      {operation.body ? (
        operation.body.fields.length ? (
          <Fields
            caption={operation.body.required ? t('docs.bodyRequired') : t('docs.body')}
            fields={operation.body.fields}
          />
        ) : (
          <Muted>{t('docs.bodyJson')}</Muted>
        )
      ) : null}
      <h4>{t('docs.responses')}</h4>
      <ul style={{ margin: 0, paddingLeft: '1.25rem' }}>
        {operation.responses.map((response) => (
          <li key={response.status}>
            <strong>{response.status}</strong> {response.description}
          </li>
        ))}
      </ul>
    </Operation>
  );
}

/** Docs: every operation of the OpenAPI document the gateway serves, grouped by area. */
export default function DocsTab() {
  const t = usePanelsT();
  const describeFailure = useDescribeFailure();
  const openApi = useOpenApi();
  const groups = useMemo(
    () => (openApi.data ? groupByTag(listOperations(openApi.data, schemaWordsFor(t))) : []),
    [openApi.data, t],
  );

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Card aria-labelledby="docs-title">
        <h2 id="docs-title">{t('docs.title')}</h2>
        <Muted>
          {richText((values) => t('docs.intro', values), {
            header: <code>{AUTH_HEADER}</code>,
            shape: <code>{ERROR_SHAPE}</code>,
            document: <a href={OPENAPI_URL}>{OPENAPI_URL}</a>,
          })}
        </Muted>
      </Card>
      {openApi.isPending ? <Loading>{t('docs.loading')}</Loading> : null}
      {openApi.isError ? (
        <LoadError
          message={t('docs.failed', { reason: describeFailure(openApi.error) })}
          onRetry={() => void openApi.refetch()}
        />
      ) : null}
      {openApi.data && groups.length === 0 ? <Empty>{t('docs.empty')}</Empty> : null}
      {groups.map(([tag, operations]) => {
        const id = `docs-${(tag || 'other').replace(/\W+/g, '-')}`;
        return (
          <Card key={tag} aria-labelledby={id}>
            <h3 id={id}>{t('docs.group', { tag: tag || t('docs.untagged'), count: operations.length })}</h3>
            {operations.map((operation) => (
              <OperationDetails key={operation.id} operation={operation} />
            ))}
          </Card>
        );
      })}
    </div>
  );
}
