import styled from '@emotion/styled';
import { useMemo } from 'react';
import { OPENAPI_URL } from '../api/developerApi';
import { useOpenApi } from '../api/developerQueries';
import { groupByTag, listOperations, type FieldDoc, type OperationDoc } from '../openapi/operations';
import { Card, Muted } from '../ui/controls';
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

const TableScroll = styled.div`
  overflow-x: auto;
`;

function Fields({ caption, fields }: { caption: string; fields: FieldDoc[] }) {
  return (
    <TableScroll>
      <Table>
        <caption style={{ textAlign: 'left', fontWeight: 600, padding: '0.5rem 0 0.25rem' }}>{caption}</caption>
        <thead>
          <tr>
            <th scope="col">Field</th>
            <th scope="col">Type</th>
            <th scope="col">Required</th>
            <th scope="col">Limits</th>
          </tr>
        </thead>
        <tbody>
          {fields.map((field) => (
            <tr key={field.name}>
              <td>
                <code>{field.name}</code>
              </td>
              <td>{field.type}</td>
              <td>{field.required ? 'yes' : 'no'}</td>
              <td>{[field.constraints, field.description].filter(Boolean).join('. ') || '–'}</td>
            </tr>
          ))}
        </tbody>
      </Table>
    </TableScroll>
  );
}

function OperationDetails({ operation }: { operation: OperationDoc }) {
  return (
    <Operation data-testid="doc-operation" data-operation={operation.id}>
      <summary>
        <MethodTag method={operation.method} />
        <code>{operation.path}</code>
        <span>{operation.summary}</span>
      </summary>
      <p style={{ margin: '0.5rem 0' }}>
        <strong>Auth: </strong>
        {operation.auth ? 'Authorization: Bearer <access token or API key>' : 'none (public)'}
      </p>
      {operation.pathParams.length ? <Fields caption="Path parameters" fields={operation.pathParams} /> : null}
      {operation.queryParams.length ? <Fields caption="Query parameters" fields={operation.queryParams} /> : null}
      {operation.headerParams.length ? <Fields caption="Headers" fields={operation.headerParams} /> : null}
      {operation.body ? (
        operation.body.fields.length ? (
          <Fields
            caption={`Request body (JSON${operation.body.required ? ', required' : ''})`}
            fields={operation.body.fields}
          />
        ) : (
          <Muted>Request body: JSON.</Muted>
        )
      ) : null}
      <h4>Responses</h4>
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
  const openApi = useOpenApi();
  const groups = useMemo(() => (openApi.data ? groupByTag(listOperations(openApi.data)) : []), [openApi.data]);

  return (
    <div style={{ display: 'flex', flexDirection: 'column', gap: '1rem' }}>
      <Card aria-labelledby="docs-title">
        <h2 id="docs-title">API reference</h2>
        <Muted>
          Every call takes and returns JSON. Send your API key (or a signed-in access token) as{' '}
          <code>Authorization: Bearer ksk_…</code>. Errors share one shape:{' '}
          <code>{'{ "message", "code", "details", "requestId" }'}</code>. The machine-readable document is{' '}
          <a href={OPENAPI_URL}>{OPENAPI_URL}</a> (OpenAPI 3.1).
        </Muted>
      </Card>
      {openApi.isPending ? <Loading>Loading the API reference…</Loading> : null}
      {openApi.isError ? (
        <LoadError what="the API reference" error={openApi.error} onRetry={() => void openApi.refetch()} />
      ) : null}
      {openApi.data && groups.length === 0 ? <Empty>The API document lists no operations.</Empty> : null}
      {groups.map(([tag, operations]) => (
        <Card key={tag} aria-labelledby={`docs-${tag.replace(/\W+/g, '-')}`}>
          <h3 id={`docs-${tag.replace(/\W+/g, '-')}`}>{`${tag} (${operations.length})`}</h3>
          {operations.map((operation) => (
            <OperationDetails key={operation.id} operation={operation} />
          ))}
        </Card>
      ))}
    </div>
  );
}
