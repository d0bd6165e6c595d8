package dev.schedlab.cluster;

import java.util.List;

/**
 * How a member takes part in a cluster.
 *
 * @param bind the interface (and port) it listens on; it listens on no other
 * @param join the members it contacts to join (empty for the coordinator)
 * @param secret the shared secret
 */
public record ClusterSettings(Endpoint bind, List<Endpoint> join, Secret secret) {
  public ClusterSettings {
    join = List.copyOf(join);
  }

  /**
   * Checks that {@code bind} names one interface of this machine (not the wildcard address), so
   * that a bad {@code --bind} is reported before anything starts.
   */
  public static void checkBind(Endpoint bind) throws ClusterException {
    MemberConfig.localAddress(bind.host());
  }
}
