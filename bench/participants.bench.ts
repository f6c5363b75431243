/**
 * Micro-benchmark of the issue 8 track participants (Insights, fraud, segments) on their own, without
 * HTTP or the store: a user moving around New York, half of the fixes stopped, a month of them, with the
 * state carried from one update to the next as track does. Prints microseconds per update.
 *
 *   node --import tsx bench/participants.bench.ts
 */
import { FraudTracker } from '../src/domain/fraud/fraud-tracker.js';
import { InsightsTracker } from '../src/domain/insights/insights-tracker.js';
import type { Project } from '../src/domain/projects/project.js';
import { SegmentsTracker } from '../src/domain/segments/segments-tracker.js';
import type { TrackParticipant, TrackUpdate } from '../src/domain/tracking/track-participant.js';
import type { User } from '../src/domain/users/user.js';
import type { Position } from '../src/geo/types.js';

const UPDATES = 200_000;
const project: Project = {
  id: 'p',
  name: 'bench',
  disabled: false,
  features: { places: false, regions: false, insights: true },
  limits: { requestsPerSecond: 10, monthlyQuota: null },
  tripExpiryMinutes: 60,
  createdAt: 0,
  segments: [
    { description: 'Pro', externalId: 'pro', condition: { metadata: { plan: 'pro' } } },
    { description: 'Home', externalId: 'home', condition: { insights: ['home'] } },
    { description: 'Commuters', externalId: 'c', condition: { insights: ['commuting', 'traveling'] } },
  ],
};
const HOME: Position = [-73.95, 40.68];
const OFFICE: Position = [-73.985, 40.755];

let seed = 7;
const random = () => {
  seed = (seed * 16807) % 2147483647;
  return seed / 2147483647;
};

/** Mean µs per update over UPDATES updates of one user, in slices (state carried across them). */
async function runAwaited(participants: TrackParticipant[]): Promise<number> {
  let total = 0;
  const slices = 20;
  for (let i = 0; i < slices; i++) total += await slice(participants, UPDATES / slices);
  return total / slices;
}

let carried: User | null = null;
async function slice(participants: TrackParticipant[], n: number): Promise<number> {
  let user: User = carried ?? {
    id: 'u',
    projectId: 'p',
    live: false,
    userId: null,
    deviceId: 'd',
    installId: null,
    description: null,
    metadata: { plan: 'pro' },
    location: null,
    locationAccuracy: null,
    foreground: true,
    stopped: false,
    deviceType: null,
    ip: '203.0.113.1',
    geofences: [],
    state: {},
    createdAt: 0,
    updatedAt: Date.parse('2026-01-05T00:00:00Z'),
  };
  const start = process.hrtime.bigint();
  for (let i = 0; i < n; i++) {
    const at = user.updatedAt + 15 * 60_000 * random();
    const r = random();
    const base = r < 0.4 ? HOME : r < 0.7 ? OFFICE : ([-74 + random() * 0.2, 40.6 + random() * 0.2] as Position);
    const location: Position = [base[0] + (random() - 0.5) * 0.001, base[1] + (random() - 0.5) * 0.001];
    const previous = user;
    user = { ...user, location, locationAccuracy: 10, updatedAt: at, state: { ...user.state } };
    const update: TrackUpdate = {
      tenant: { projectId: 'p', live: false },
      project,
      user,
      previous,
      at,
      now: at,
      location,
      accuracyMeters: 10,
      stopped: random() < 0.5,
      replayed: false,
      enteredGeofences: [],
      insideGeofences: [],
      body: {},
      // No store commits here: these participants write nothing through the unit.
      unit: { trackUnit: true },
    };
    for (const p of participants) {
      const c = await p.onTrack(update);
      if (c.state) user.state = { ...user.state, ...c.state };
    }
  }
  carried = user;
  return Number(process.hrtime.bigint() - start) / 1000 / n;
}

const rows: Array<[string, TrackParticipant[]]> = [
  ['insights', [new InsightsTracker()]],
  ['fraud', [new FraudTracker()]],
  ['segments (after insights)', [new InsightsTracker(), new SegmentsTracker()]],
  ['insights + fraud + segments', [new InsightsTracker(), new FraudTracker(), new SegmentsTracker()]],
];
for (const [name, participants] of rows) {
  carried = null;
  const us = await runAwaited(participants);
  const spots = ((carried as User | null)?.state.insights as { spots?: unknown[] } | undefined)?.spots?.length ?? 0;
  process.stdout.write(`${name}: ${us.toFixed(2)} µs per update (${UPDATES} updates; ${spots} spots kept)\n`);
}
