export {
  isAbsent,
  type JsonSchema,
  type Param,
  type ParamSpec,
  type Parsed,
  param,
  paramsParser,
  parseParams,
} from './param.js';
export { bool, datetime, num, oneOf, str, toBoolean, toEpochMs, toNumber } from './scalars.js';
export { commaList, inferScalar, jsonValue, latLng, metadata, parseLatLng } from './structured.js';
