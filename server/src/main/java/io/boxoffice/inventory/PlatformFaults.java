package io.boxoffice.inventory;

/**
 * How long the platform around an event has been failing, as its node sees it: a running total
 * of milliseconds, for instance while a cluster member was unreachable or handing its entities
 * over. A hold's clock stops for that time: the inventory gives every live hold the time this
 * total grew by, so a fan whose cart, checkout or edge node was down does not lose the seats.
 * The event's own downtime (crash, move, database outage) is made good separately on recovery.
 */
@FunctionalInterface
public interface PlatformFaults {
  /** Milliseconds of fault this node has counted up to {@code now}; never decreases. */
  long faultMillisUpTo(long now);

  /** No faults ever: a single node, or a test that does not inject any. */
  PlatformFaults NONE = now -> 0;
}
