/**
 * Node/V8 flags the server process runs with: `npm start` passes them (package.json; a test keeps the
 * two in step), as does the bench's server, and `WORKERS=N` workers inherit them. Start `node` yourself
 * and pass them too.
 *
 * `--max-semi-space-size=32`: a young generation of 32 MB semi-spaces instead of V8's 16. Under track
 * load a request's objects live as long as it waits for its commit (10-15 ms at 50 connections), and
 * with small semi-spaces a scavenge came often enough to copy them twice and promote them to the old
 * generation, which then needs the major GCs. 64 MB (2026-11-27, 2-core AMD VM: the known-device
 * track row 2,971-3,172 -> 3,309-3,506 req/s against 16) made each major GC's pause longer, since it
 * also evacuates the young generation: with the fence index in memory, the PUT row at 5,000 req/s
 * had a pause of 11-16 ms every ~2 s and a p99 of 11.6-40.8 ms in five runs, against 6.7-9.3 ms in
 * five alternating runs at 32; the track rows were within noise of each other (2026-11-28, 2-core
 * Intel VM: new devices 254 / 256 against 260 / 242 µs a track, known 312 / 334 against 326 / 339).
 * It costs up to ~75 MB more resident memory than V8's default.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=32'];
