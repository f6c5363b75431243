import { useState } from 'preact/hooks';
import { ApiError, api, type Json } from '../api.js';
import { ErrorLine } from '../record.js';
import { Table } from '../table.js';

/** Bulk import of a CSV or GeoJSON file through `POST /v1/geofences/import`, with its per-row report. */
export function ImportPanel({ onImported }: { onImported: () => void }) {
  const [file, setFile] = useState<File | null>(null);
  const [dryRun, setDryRun] = useState(false);
  const [busy, setBusy] = useState(false);
  const [result, setResult] = useState<Json | null>(null);
  const [error, setError] = useState<string | null>(null);

  const submit = async (e: Event) => {
    e.preventDefault();
    if (!file) return setError('Choose a CSV or GeoJSON file first.');
    setBusy(true);
    setError(null);
    setResult(null);
    const geojson = /\.(geo)?json$/i.test(file.name);
    try {
      const r = await api('POST', `/v1/geofences/import${dryRun ? '?dryRun=true' : ''}`, {
        text: { body: await file.text(), type: geojson ? 'application/geo+json' : 'text/csv' },
      });
      setResult(r);
      if (!dryRun) onImported();
    } catch (err) {
      setError(
        err instanceof ApiError && err.status === 404
          ? 'This server does not offer geofence import (POST /v1/geofences/import).'
          : (err as Error).message,
      );
    } finally {
      setBusy(false);
    }
  };

  return (
    <form class="import" onSubmit={submit} aria-label="Import geofences">
      <h2>Import</h2>
      <p class="hint">
        A CSV (columns tag, externalId, description, type, latitude and longitude or coordinates, radius, metadata.*,
        enabled) or a GeoJSON FeatureCollection. Geofences are matched by tag and external id: new ones are created, the
        others updated; refused rows are listed and the rest is applied.
      </p>
      <label for="import-file">Geofences file (CSV or GeoJSON)</label>
      <input
        id="import-file"
        type="file"
        accept=".csv,.geojson,.json,text/csv,application/geo+json"
        onChange={(e) => setFile(e.currentTarget.files?.[0] ?? null)}
      />
      <label>
        <input type="checkbox" checked={dryRun} onChange={(e) => setDryRun(e.currentTarget.checked)} />
        Only check the file (change nothing)
      </label>
      <button type="submit" disabled={busy}>
        {busy ? 'Importing…' : 'Import'}
      </button>
      <ErrorLine error={error} />
      {result && (
        <div class="import-result" role="status">
          <p class="import-summary">
            {dryRun ? 'Checked: would create' : 'Created'} {result.created}, {dryRun ? 'would update' : 'updated'}{' '}
            {result.updated}, refused {result.errors.length} {result.errors.length === 1 ? 'row' : 'rows'}.
          </p>
          {result.errors.length > 0 && (
            <Table class="import-errors" caption="Refused rows" columns={['Row', 'Parameter', 'Message']}>
              {result.errors.map((r: Json) => (
                <tr key={`${r.row}-${r.param}`}>
                  <td>{r.row}</td>
                  <td>{r.param}</td>
                  <td>{r.message}</td>
                </tr>
              ))}
            </Table>
          )}
        </div>
      )}
    </form>
  );
}
