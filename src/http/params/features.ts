import { invalid, invalidParam } from '../../domain/errors.js';
import type { ProjectFeatures } from '../../domain/projects/project.js';
import { param } from './param.js';
import { toBoolean } from './scalars.js';
import { jsonValue } from './structured.js';

const FEATURES = ['regions', 'places', 'insights'] as const;

/** `features` of PATCH /v1/settings: `{regions?, places?, insights?}` booleans (or a JSON string of them). */
export const features = () =>
  param(
    {
      type: 'object',
      properties: { regions: { type: 'boolean' }, places: { type: 'boolean' }, insights: { type: 'boolean' } },
      additionalProperties: false,
      description: 'optional project features to turn on (true) or off (false); others are kept',
    },
    (raw, name): Partial<ProjectFeatures> => {
      const value = jsonValue({}).parse(raw, name);
      if (!value || typeof value !== 'object' || Array.isArray(value))
        throw invalidParam(name, 'must be a dictionary.');
      const out: Partial<ProjectFeatures> = {};
      for (const [key, v] of Object.entries(value)) {
        const feature = FEATURES.find((f) => f === key);
        if (!feature) throw invalidParam(name, `may only have the keys ${FEATURES.join(', ')} ("${key}" is not one).`);
        if (v === null || v === undefined) continue;
        const on = toBoolean(v);
        if (on === null) throw invalid(name, `${name}.${key} must be a boolean (true or false).`);
        out[feature] = on;
      }
      return out;
    },
  );
