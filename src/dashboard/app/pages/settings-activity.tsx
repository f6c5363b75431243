import { useEffect, useState } from 'preact/hooks';
import { api, type Json } from '../api.js';
import { when } from '../features.js';
import { ErrorLine } from '../record.js';
import { Table } from '../table.js';

/** Loads one GET of the API; the error, if any, as the page should show it. */
function useGet(path: string): { data: Json | null; error: string | null } {
  const [data, setData] = useState<Json | null>(null);
  const [error, setError] = useState<string | null>(null);
  useEffect(() => {
    api('GET', path).then(setData, (e: Error) => setError(e.message));
  }, [path]);
  return { data, error };
}

/** The environment's webhooks and the newest deliveries to them (`GET /v1/webhooks`, `/v1/webhooks/deliveries`). */
export function WebhooksSection() {
  const hooks = useGet('/v1/webhooks');
  const log = useGet('/v1/webhooks/deliveries?limit=20');
  return (
    <>
      <h2>Webhooks</h2>
      <ErrorLine error={hooks.error ?? log.error} />
      {hooks.data && hooks.data.webhooks.length === 0 && (
        <p>
          None in this environment. Add one with{' '}
          <code>npm run cli -- projects webhooks &lt;project&gt; --add &lt;url&gt;</code>.
        </p>
      )}
      {hooks.data && hooks.data.webhooks.length > 0 && (
        <Table
          class="table webhooks"
          caption="Webhooks (the signing secret by its last four characters)"
          columns={['URL', 'Events', 'Mode', 'State', 'Secret']}
        >
          {hooks.data.webhooks.map((w: Json) => (
            <tr key={w._id}>
              <td>{w.url}</td>
              <td>{w.types ? w.types.join(', ') : 'all'}</td>
              <td>{w.mode}</td>
              <td>{w.enabled ? 'enabled' : 'disabled'}</td>
              <td>
                <code>{w.secret}</code>
              </td>
            </tr>
          ))}
        </Table>
      )}
      {log.data && log.data.deliveries.length > 0 && (
        <Table
          class="table deliveries"
          caption="Newest deliveries"
          columns={['Created', 'To', 'Event', 'Status', 'Attempts', 'Last answer']}
        >
          {log.data.deliveries.map((d: Json) => (
            <tr key={d._id}>
              <td>{when(d.createdAt)}</td>
              <td>{urlOf(hooks.data, d)}</td>
              <td>
                <code>{d.eventId}</code>
              </td>
              <td>{d.status}</td>
              <td>{d.attempts}</td>
              <td>{[d.lastStatus, d.lastError].filter((x) => x !== null).join(' ') || '–'}</td>
            </tr>
          ))}
        </Table>
      )}
      {log.data && log.data.deliveries.length === 0 && hooks.data?.webhooks.length > 0 && <p>No deliveries yet.</p>}
    </>
  );
}

function urlOf(hooks: Json | null, d: Json): string {
  const w = hooks?.webhooks.find((x: Json) => x._id === d.webhookId);
  return w ? w.url : `${d.target} ${d.webhookId}`;
}

const BAR_HEIGHT = 18;
const LABEL_WIDTH = 210;
const CHART_WIDTH = 560;

/** This month's requests per endpoint as a horizontal bar chart (`GET /v1/usage`), drawn as inline SVG. */
export function UsageSection() {
  const { data, error } = useGet('/v1/usage');
  const rows: Json[] = data?.endpoints ?? [];
  const max = Math.max(1, ...rows.map((r) => r.count));
  const barSpace = CHART_WIDTH - LABEL_WIDTH - 60;
  return (
    <>
      <h2>Usage this month</h2>
      <ErrorLine error={error} />
      {data && (
        <p class="usage-total">
          {data.total.toLocaleString('en-US')} requests in {data.month} with this environment's keys.
        </p>
      )}
      {rows.length > 0 && (
        <svg
          class="usage-chart"
          role="img"
          aria-label={`Requests per endpoint in ${data.month}`}
          width={CHART_WIDTH}
          height={rows.length * (BAR_HEIGHT + 4)}
          viewBox={`0 0 ${CHART_WIDTH} ${rows.length * (BAR_HEIGHT + 4)}`}
        >
          {rows.map((r, i) => {
            const y = i * (BAR_HEIGHT + 4);
            const w = Math.max(1, (r.count / max) * barSpace);
            return (
              <g key={r.endpoint}>
                <title>{`${r.endpoint}: ${r.count}`}</title>
                <text x={LABEL_WIDTH - 6} y={y + BAR_HEIGHT - 5} text-anchor="end">
                  {r.endpoint}
                </text>
                <rect x={LABEL_WIDTH} y={y} width={w} height={BAR_HEIGHT} />
                <text x={LABEL_WIDTH + w + 4} y={y + BAR_HEIGHT - 5}>
                  {r.count.toLocaleString('en-US')}
                </text>
              </g>
            );
          })}
        </svg>
      )}
    </>
  );
}
