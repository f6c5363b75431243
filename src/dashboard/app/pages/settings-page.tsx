import { useEffect, useState } from 'preact/hooks';
import { api, call, type Json } from '../api.js';
import { ErrorLine } from '../record.js';
import { UsageSection, WebhooksSection } from './settings-activity.js';

const FEATURES = [
  ['places', 'Places: the place and chains a user is at'],
  ['regions', 'Regions: country, state, DMA and postal code'],
  ['insights', 'Insights: home, office, traveling'],
] as const;

/**
 * What the API lets a secret key read and change: the project's features and place settings, and the
 * per-key rate limit (from the answer's headers); the environment's webhooks with their delivery log,
 * and the month's usage (settings-activity.tsx).
 */
export function SettingsPage() {
  const [settings, setSettings] = useState<Json | null>(null);
  const [limit, setLimit] = useState<string | null>(null);
  const [filters, setFilters] = useState({ chain: '', category: '' });
  const [mappings, setMappings] = useState('{}');
  const [message, setMessage] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  const show = (s: Json) => {
    setSettings(s);
    setFilters({
      chain: (s.placeFilters?.chain ?? []).join(', '),
      category: (s.placeFilters?.category ?? []).join(', '),
    });
    setMappings(JSON.stringify(s.chainMappings ?? {}, null, 2));
  };
  useEffect(() => {
    call('GET', '/v1/settings').then(
      async (res) => {
        setLimit(res.headers.get('ratelimit-limit'));
        const body = await res.json();
        if (res.ok) show(body);
        else setError(body?.meta?.message ?? `GET /v1/settings answered ${res.status}`);
      },
      (e) => setError(e.message),
    );
  }, []);

  const patch = async (body: Record<string, unknown>, what: string) => {
    setError(null);
    setMessage(null);
    try {
      show(await api('PATCH', '/v1/settings', { json: body }));
      setMessage(`${what} saved.`);
    } catch (err) {
      setError((err as Error).message);
    }
  };
  const list = (s: string) =>
    s
      .split(',')
      .map((x) => x.trim())
      .filter(Boolean);
  const savePlaces = (e: Event) => {
    e.preventDefault();
    let parsed: unknown;
    try {
      parsed = JSON.parse(mappings || '{}');
    } catch {
      return setError('chainMappings must be JSON: {"starbucks": "your-id"}.');
    }
    void patch(
      { placeFilters: { chain: list(filters.chain), category: list(filters.category) }, chainMappings: parsed },
      'Place settings',
    );
  };

  if (!settings)
    return (
      <section class="page">
        <ErrorLine error={error} />
        <p>Loading…</p>
      </section>
    );
  return (
    <section class="page settings">
      <h1>Settings</h1>
      <ErrorLine error={error} />
      {message && (
        <p role="status" class="ok">
          {message}
        </p>
      )}
      <fieldset>
        <legend>Features</legend>
        {FEATURES.map(([id, label]) => (
          <label key={id}>
            <input
              type="checkbox"
              checked={settings.features?.[id] === true}
              onChange={(e) => patch({ features: { [id]: e.currentTarget.checked } }, 'Features')}
            />
            {label}
          </label>
        ))}
      </fieldset>
      <form onSubmit={savePlaces} aria-label="Place settings">
        <h2>Place settings</h2>
        <label for="place-chains">Only these chains (comma-separated slugs; empty: all)</label>
        <input
          id="place-chains"
          value={filters.chain}
          onInput={(e) => setFilters({ ...filters, chain: e.currentTarget.value })}
        />
        <label for="place-categories">Only these categories (comma-separated; empty: all)</label>
        <input
          id="place-categories"
          value={filters.category}
          onInput={(e) => setFilters({ ...filters, category: e.currentTarget.value })}
        />
        <label for="chain-mappings">Chain mappings (JSON: chain slug → your id)</label>
        <textarea id="chain-mappings" rows={4} value={mappings} onInput={(e) => setMappings(e.currentTarget.value)} />
        <button type="submit">Save place settings</button>
      </form>
      <h2>Rate limit</h2>
      <p>
        {limit
          ? `${limit} requests per second per key (tracks: 1 a second per device).`
          : 'Not reported by the server.'}
      </p>
      <WebhooksSection />
      <UsageSection />
    </section>
  );
}
