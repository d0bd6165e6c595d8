package dev.schedlab.engine.core;

/**
 * A periodic timer resource shared by the tasks that name it (rt-app's timer): the next expiry is
 * set at the first use and advanced by a period at each use.
 */
final class RtTimer {
  boolean started;
  long next;
}
