// store-independent: parses destination URLs and applies filters, in memory
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { LocationEvent } from '../events/event.js';
import {
  AMQP_UNSAFE,
  destinationTarget,
  destinationWants,
  fillTemplate,
  MQTT_UNSAFE,
  newDestination,
} from './destination.js';

const event = (over: Partial<LocationEvent> = {}): LocationEvent => ({
  id: 'e1',
  projectId: 'p',
  live: false,
  type: 'user.entered_geofence',
  createdAt: 0,
  actualCreatedAt: 0,
  user: { id: 'u1', userId: 'a/b+c.d', deviceId: 'd', metadata: { plan: 'pro' } },
  location: [0, 0],
  locationAccuracy: 5,
  confidence: 3,
  geofence: { tag: 'shop' },
  ...over,
});

describe('destinations', () => {
  it('reads each scheme, keeps credentials in the broker address and refuses what it cannot send to', () => {
    assert.deepEqual(destinationTarget('redis://:pw@h:6379/?stream=s&maxlen=50'), {
      kind: 'redis',
      broker: 'redis://:pw@h:6379',
      name: 's',
      routingKey: '{type}',
      maxLen: 50,
    });
    assert.equal(destinationTarget('amqp://u:p@h:5672/vh?exchange=x&routingKey=k').broker, 'amqp://u:p@h:5672/vh');
    assert.equal(destinationTarget('nats://h:4222/?subject=a.b').name, 'a.b');
    assert.throws(() => destinationTarget('kafka://h:9092/?topic=t'), /^Error: --add must be a redis/);
    assert.throws(() => destinationTarget('mqtt://h:1883/'), /names its topic/);
    assert.throws(() => destinationTarget('redis://h/?stream=s&maxlen=0'), /maxlen/);
    assert.throws(() => newDestination({ url: 'redis://h/?stream=s', live: false, types: ['nope'] }, 0), /--types/);
  });

  it('fills templates without letting a userId reach another topic', () => {
    assert.equal(fillTemplate('t/{type}/{userId}', event(), MQTT_UNSAFE), 't/user.entered_geofence/a_b_c.d');
    assert.equal(fillTemplate('{type}.{userId}', event(), AMQP_UNSAFE), 'user_entered_geofence.a/b+c_d');
    assert.equal(
      fillTemplate(
        '{userId}',
        event({ user: { id: 'u9', userId: null, deviceId: null, metadata: null } }),
        MQTT_UNSAFE,
      ),
      'u9',
    );
  });

  it('filters by environment, type, blocked geofence tag and blocked metadata key', () => {
    const d = newDestination(
      {
        url: 'redis://h/?stream=s',
        live: false,
        types: ['user.entered_geofence'],
        blockedTags: ['private'],
        blockedMetadataKeys: ['optOut'],
      },
      0,
    );
    assert.equal(destinationWants(d, event()), true);
    assert.equal(destinationWants(d, event({ live: true })), false);
    assert.equal(destinationWants(d, event({ type: 'user.exited_geofence' })), false);
    assert.equal(destinationWants(d, event({ geofence: { tag: 'private' } })), false);
    assert.equal(
      destinationWants(d, event({ user: { id: 'u', userId: null, deviceId: null, metadata: { optOut: false } } })),
      false,
    );
    assert.equal(destinationWants({ ...d, enabled: false }, event()), false);
  });
});
