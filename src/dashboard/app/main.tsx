import 'maplibre-gl/dist/maplibre-gl.css';
import './style.css';
import { render } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import { checkSecretKey, session } from './api.js';
import { EventsPage } from './pages/events-page.js';
import { GeofencesPage } from './pages/geofences-page.js';
import { MapPage } from './pages/map-page.js';
import { SettingsPage } from './pages/settings-page.js';
import { SimulatorPage } from './pages/simulator-page.js';
import { TripsPage } from './pages/trips-page.js';
import { UserPage, UsersPage } from './pages/users-page.js';

const PAGES = [
  ['map', 'Map'],
  ['geofences', 'Geofences'],
  ['users', 'Users'],
  ['events', 'Events'],
  ['trips', 'Trips'],
  ['simulator', 'Simulator'],
  ['settings', 'Settings'],
] as const;

/** The page named by the address's hash (`#/users/<id>`), so the back button and links work. */
function useRoute(): string[] {
  const read = () => location.hash.replace(/^#\/?/, '').split('/').map(decodeURIComponent);
  const [route, setRoute] = useState(read);
  useEffect(() => {
    const on = () => setRoute(read());
    addEventListener('hashchange', on);
    return () => removeEventListener('hashchange', on);
  }, []);
  return route;
}

function SignIn({ onSignedIn }: { onSignedIn: () => void }) {
  const [secret, setSecret] = useState('');
  const [publishable, setPublishable] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async (e: Event) => {
    e.preventDefault();
    setBusy(true);
    const problem = await checkSecretKey(secret);
    setBusy(false);
    if (problem) return setError(problem);
    session.save(secret.trim(), publishable.trim() || null);
    onSignedIn();
  };
  return (
    <main class="signin">
      <h1>Whereabouts</h1>
      <form onSubmit={submit} aria-describedby={error ? 'signin-error' : undefined}>
        <label for="secret-key">Secret key</label>
        <input
          id="secret-key"
          type="password"
          autocomplete="off"
          required
          value={secret}
          onInput={(e) => setSecret(e.currentTarget.value)}
          placeholder="prj_test_sk_…"
        />
        <label for="publishable-key">Publishable key (optional: the simulator tracks with it)</label>
        <input
          id="publishable-key"
          type="text"
          autocomplete="off"
          value={publishable}
          onInput={(e) => setPublishable(e.currentTarget.value)}
          placeholder="prj_test_pk_…"
        />
        <button type="submit" disabled={busy}>
          {busy ? 'Checking…' : 'Sign in'}
        </button>
        {error && (
          <p id="signin-error" class="error" role="alert">
            {error}
          </p>
        )}
      </form>
      <p class="hint">
        The keys stay in this browser tab only (session storage). The first <code>npm start</code> printed them.
      </p>
    </main>
  );
}

function App() {
  const [signedIn, setSignedIn] = useState(() => session.secret() !== null);
  const [page = 'map', ...rest] = useRoute();
  if (!signedIn) return <SignIn onSignedIn={() => setSignedIn(true)} />;
  const live = session.secret()!.startsWith('prj_live_');
  return (
    <div class="app">
      <header>
        <span class="brand">Whereabouts</span>
        <span class={`env ${live ? 'live' : 'test'}`}>{live ? 'live' : 'test'} data</span>
        <nav aria-label="Pages">
          {PAGES.map(([id, name]) => (
            <a key={id} href={`#/${id}`} aria-current={page === id ? 'page' : undefined}>
              {name}
            </a>
          ))}
        </nav>
        <button
          type="button"
          class="signout"
          onClick={() => {
            session.clear();
            setSignedIn(false);
          }}
        >
          Sign out
        </button>
      </header>
      <main id="page">
        {page === 'map' && <MapPage />}
        {page === 'geofences' && <GeofencesPage />}
        {page === 'users' && (rest[0] ? <UserPage id={rest[0]} /> : <UsersPage />)}
        {page === 'events' && <EventsPage />}
        {page === 'trips' && <TripsPage />}
        {page === 'simulator' && <SimulatorPage />}
        {page === 'settings' && <SettingsPage />}
      </main>
    </div>
  );
}

render(<App />, document.getElementById('root')!);
