package dev.schedlab.engine.core;

/** A barrier: how many of its users have arrived in this round, and who sleeps on it. */
final class BarrierState {
  final int users;
  final WaitQueue sleepers;
  int arrived;

  BarrierState(String name, int users) {
    this.users = users;
    this.sleepers = new WaitQueue(name);
  }
}
