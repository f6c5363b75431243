/**
 * Node/V8 flags the server process runs with: `npm start` passes them (package.json; a test keeps the
 * two in step), as does the bench's server, and `WORKERS=N` workers inherit them. Start `node` yourself
 * and pass them too.
 *
 * `--max-semi-space-size=64`: a young generation of 64 MB semi-spaces instead of V8's 16. Under track
 * load a request's objects live as long as it waits for its commit (10-15 ms at 50 connections), and
 * with small semi-spaces a scavenge came often enough to copy them twice and promote them to the old
 * generation, which then needs the major GCs. In three alternating pairs (2026-11-27, 2-core AMD VM)
 * the known-device track row went from 2,971-3,172 to 3,309-3,506 req/s (CPU 471-515 -> 427-443 µs a
 * track) and the new-device row from 4,666-5,017 to 5,047-5,222; management and context rows within
 * noise. It costs up to ~150 MB more resident memory.
 */
export const SERVER_NODE_FLAGS: readonly string[] = ['--max-semi-space-size=64'];
