import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import amqp from 'amqplib';
import { Redis } from 'ioredis';
import { connectAsync } from 'mqtt';
import { connect as natsConnect, StorageType } from 'nats';
import { type LoadRequest, measure } from '../lib/load.js';
import type { BenchContext, BenchResult } from '../lib/types.js';

/** A broker on this machine with a counter of what reached it, and the destination URL that sends there. */
interface Sink {
  kind: string;
  url: string;
  count(): Promise<number>;
  close(): Promise<void>;
}

const NAME = `bench${process.pid}`;

async function sinks(): Promise<Sink[]> {
  const redis = new Redis('redis://127.0.0.1:6379');
  const nc = await natsConnect({ servers: '127.0.0.1:4222' });
  const jsm = await nc.jetstreamManager();
  await jsm.streams.add({ name: NAME, subjects: [`${NAME}.>`], storage: StorageType.File });
  const mq = await connectAsync('mqtt://127.0.0.1:1883');
  let mqttCount = 0;
  mq.on('message', () => mqttCount++);
  await mq.subscribeAsync(`${NAME}/#`, { qos: 1 });
  const connection = await amqp.connect('amqp://127.0.0.1:5672');
  const channel = await connection.createChannel();
  await channel.assertExchange(NAME, 'topic', { durable: false });
  await channel.assertQueue(NAME, { durable: false });
  await channel.bindQueue(NAME, NAME, '#');
  return [
    {
      kind: 'Redis Streams',
      url: `redis://127.0.0.1:6379/?stream=${NAME}`,
      count: () => redis.xlen(NAME),
      close: async () => {
        await redis.del(NAME);
        await redis.quit();
      },
    },
    {
      kind: 'NATS JetStream',
      url: `nats://127.0.0.1:4222/?subject=${NAME}.events`,
      count: async () => (await jsm.streams.info(NAME)).state.messages,
      close: async () => {
        await jsm.streams.delete(NAME);
        await nc.close();
      },
    },
    {
      kind: 'MQTT',
      url: `mqtt://127.0.0.1:1883/?topic=${NAME}/{type}`,
      count: async () => mqttCount,
      close: () => mq.endAsync(),
    },
    {
      kind: 'AMQP',
      url: `amqp://127.0.0.1:5672/?exchange=${NAME}&routingKey={type}`,
      count: async () => (await channel.checkQueue(NAME)).messageCount,
      close: async () => {
        await channel.deleteQueue(NAME);
        await channel.deleteExchange(NAME);
        await connection.close();
      },
    },
  ];
}

/**
 * One row per broker: new-device tracks with one destination that takes every event, beside the
 * webhook row. The row's CPU includes the server's publishing; how far it fell behind is printed.
 * BENCH_TRACK_DESTINATIONS=off skips them.
 */
export async function destinationRows(
  ctx: BenchContext,
  size: number,
  tracks: (prefix: string) => () => LoadRequest,
): Promise<BenchResult[]> {
  const results: BenchResult[] = [];
  for (const sink of await sinks()) {
    const [dest] = JSON.parse(await ctx.cli(['projects', 'destinations', 'bench', '--add', sink.url])) as Array<{
      id: string;
    }>;
    try {
      await new Promise((r) => setTimeout(r, 1000));
      const name = `POST /v1/track (${size.toLocaleString('en-US')} geofences, every event to ${sink.kind})`;
      results.push(await measure(ctx, name, tracks(`${sink.kind.slice(0, 4)}${size}`)));
      const atStop = await sink.count();
      let last = atStop;
      const started = Date.now();
      for (let quiet = 0; quiet < 4; ) {
        await new Promise((r) => setTimeout(r, 500));
        const now = await sink.count();
        quiet = now === last ? quiet + 1 : 0;
        last = now;
      }
      console.log(
        `  ${sink.kind}: ${atStop.toLocaleString('en-US')} messages during the row, ${(last - atStop).toLocaleString('en-US')} after it (${((Date.now() - started - 2000) / 1000).toFixed(1)} s)`,
      );
    } finally {
      await ctx.cli(['projects', 'destinations', 'bench', '--remove', dest!.id]);
      await sink.close();
    }
  }
  return results;
}

/**
 * Export throughput: the project's events (all the rows above made) to each format, through the CLI
 * (a process of its own, reading the store beside the server). `requests` is the rows written and
 * `reqPerSec` the rows per second.
 */
export async function exportRows(ctx: BenchContext): Promise<BenchResult[]> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'whereabouts-bench-export-'));
  const results: BenchResult[] = [];
  try {
    for (const format of ['ndjson', 'csv', 'parquet']) {
      const out = path.join(dir, `events.${format}`);
      const said = await ctx.cli(['export', 'bench', 'events', '--format', format, '--out', out]);
      const m = /^(\d+) events written .* in ([\d.]+) s, (\d+) rows\/s/m.exec(said);
      if (!m) throw new Error(`export printed no summary: ${said}`);
      const mb = (fs.statSync(out).size / 2 ** 20).toFixed(1);
      console.log(`  export ${format}: ${Number(m[1]).toLocaleString('en-US')} events, ${mb} MiB, ${m[2]} s`);
      results.push({
        name: `export events --format ${format} (rows/s)`,
        requests: Number(m[1]),
        reqPerSec: Number(m[3]),
        p50Ms: 0,
        p99Ms: 0,
        errors: 0,
      });
      fs.rmSync(out);
    }
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return results;
}
