/**
 * A track's transaction as `UserStore.trackUpdate` hands it to `compute`, opaque to the domain, which
 * only passes it on to the trip store: writes given it commit with the track's user and events, or
 * not at all, and trip locks taken with it are held until then.
 */
export interface TrackUnit {
  readonly trackUnit: true;
}
