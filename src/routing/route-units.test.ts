import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { formatDistance, formatDuration } from './route-units.js';

describe('route units', () => {
  it('writes metric distances in meters below 1 km and tenths of km above', () => {
    assert.deepEqual(formatDistance(350.44, 'metric'), { value: 350.4, text: '350 m' });
    assert.deepEqual(formatDistance(1234, 'metric'), { value: 1234, text: '1.2 km' });
    assert.deepEqual(formatDistance(12_000, 'metric'), { value: 12000, text: '12 km' });
  });

  it('writes imperial distances as feet values, in feet below a tenth of a mile and miles above', () => {
    assert.deepEqual(formatDistance(152.4, 'imperial'), { value: 500, text: '500 ft' });
    // The SDK fixtures: 18453.4 ft is "3.5 mi", 38873.56 ft "7.4 mi".
    assert.equal(formatDistance(18453.4 / 3.28084, 'imperial').text, '3.5 mi');
    assert.equal(formatDistance(38873.56 / 3.28084, 'imperial').text, '7.4 mi');
    assert.equal(formatDistance(1287.5, 'imperial').text, '0.8 mi');
  });

  it('writes durations in minutes with hours past the hour', () => {
    assert.deepEqual(formatDuration(60), { value: 1, text: '1 min' });
    assert.deepEqual(formatDuration(720), { value: 12, text: '12 mins' });
    assert.equal(formatDuration(65 * 60).text, '1 hr 5 mins');
    assert.equal(formatDuration(142 * 60).text, '2 hrs 22 mins');
    assert.equal(formatDuration(120 * 60).text, '2 hrs');
    assert.deepEqual(formatDuration(0), { value: 0, text: '0 mins' });
  });
});
