import { parentPort } from 'node:worker_threads';

// The thread `HealthzProbe` starts: on `{url}` it asks `<url>/healthz` back to back until `'stop'`,
// then posts the time of each answer in ms.
let running = false;
parentPort!.on('message', async (m: { url: string } | 'stop') => {
  if (m === 'stop') {
    running = false;
    return;
  }
  running = true;
  const times: number[] = [];
  while (running) {
    const started = performance.now();
    await (await fetch(`${m.url}/healthz`)).arrayBuffer();
    times.push(performance.now() - started);
  }
  parentPort!.postMessage(times);
});
