import { candidateTier, type PlaceCandidate } from './place-service.js';

/**
 * The spec's confidence of a place entry: 3 (high) inside a building-sized outline, 2 (medium) within
 * 15 m of a point place or inside a broad area (a park, a campus), else 1 (low); lowered by a coarse fix
 * (over 50 m at most medium, over 100 m low) and by one step when another candidate is about as likely
 * (also inside a building-sized outline, or near and within 5 m as close).
 */
export function placeConfidence(chosen: PlaceCandidate, others: PlaceCandidate[], accuracyMeters: number): 1 | 2 | 3 {
  const tier = candidateTier(chosen);
  let c = tier === 0 ? 3 : tier === 2 || chosen.distance <= 15 ? 2 : 1;
  if (accuracyMeters > 100) c = 1;
  else if (accuracyMeters > 50) c = Math.min(c, 2);
  const rival = others.some((o) => candidateTier(o) === tier && (tier !== 1 || o.distance - chosen.distance < 5));
  if (rival && tier !== 2) c = Math.max(1, c - 1);
  return c as 1 | 2 | 3;
}
