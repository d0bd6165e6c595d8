package dev.schedlab.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.config.ExecutorConfig;
import com.hazelcast.config.JavaSerializationFilterConfig;
import com.hazelcast.config.JoinConfig;
import com.hazelcast.config.NetworkConfig;
import com.hazelcast.config.TcpIpConfig;
import java.net.Inet6Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.net.UnknownHostException;
import java.util.List;

/**
 * The Hazelcast configuration of a member: bound to one interface only, joining by an explicit
 * TCP/IP member list (no multicast, no cloud auto-detection, no phoning home), the cluster name
 * derived from the matrix id and the secret, Java serialization limited to schedlab's, Hazelcast's
 * and the JDK's classes, and two executors: one for cells (as many threads as the member runs cells
 * at once) and one for the short control calls (join handshake, plugin transfer, finish).
 */
final class MemberConfig {
  /** Member attribute: {@value #COORDINATOR} or {@value #WORKER}. */
  static final String ROLE = "schedlab.role";

  static final String COORDINATOR = "coordinator";
  static final String WORKER = "worker";

  /** Member attribute: how many cells the member runs at once. */
  static final String JOBS = "schedlab.jobs";

  /** The executor that runs cells. */
  static final String CELLS = "schedlab-cells";

  /** The executor of control calls. */
  static final String CONTROL = "schedlab-control";

  /** Seconds between member heartbeats. */
  static final int HEARTBEAT_INTERVAL_S = 1;

  /**
   * Seconds without a heartbeat after which a member is taken as dead and its cells run elsewhere
   * (a closed connection, as when a process is killed, is noticed within about a second).
   */
  static final int HEARTBEAT_TIMEOUT_S = 15;

  /** Seconds a joining member waits for an answer from each listed address. */
  static final int CONNECT_TIMEOUT_S = 5;

  /** Ports tried from the given one when a worker's port is taken (several workers on one host). */
  static final int WORKER_PORT_COUNT = 100;

  /** Hazelcast partitions: the cluster keeps no data, so few (all members must agree). */
  static final int PARTITIONS = 23;

  private MemberConfig() {}

  /**
   * A member's configuration.
   *
   * @param clusterName {@link MatrixId#clusterName}
   * @param bind the interface and port to listen on (the port fixed for the coordinator, the first
   *     one tried for a worker)
   * @param fixedPort whether only {@code bind}'s port may be used
   * @param join the addresses of other members
   * @param role {@link #COORDINATOR} or {@link #WORKER}
   * @param jobs cells run at once on this member (0: none)
   * @param runtime this member's {@link MemberRuntime}, found by the calls it receives
   */
  static Config of(
      String clusterName,
      Endpoint bind,
      boolean fixedPort,
      List<Endpoint> join,
      String role,
      int jobs,
      MemberRuntime runtime)
      throws ClusterException {
    Config c = new Config();
    c.setClusterName(clusterName);
    c.setProperty("hazelcast.phone.home.enabled", "false");
    c.setProperty("hazelcast.logging.type", "slf4j");
    c.setProperty("hazelcast.socket.bind.any", "false");
    c.setProperty("hazelcast.wait.seconds.before.join", "0");
    c.setProperty("hazelcast.heartbeat.interval.seconds", Integer.toString(HEARTBEAT_INTERVAL_S));
    c.setProperty("hazelcast.max.no.heartbeat.seconds", Integer.toString(HEARTBEAT_TIMEOUT_S));
    c.setProperty("hazelcast.partition.count", Integer.toString(PARTITIONS));
    c.setProperty("hazelcast.health.monitoring.level", "OFF");
    // A stopped process simply leaves (the others notice the closed connections at once);
    // schedlab stops its members itself, so no hook of Hazelcast's races with it at exit.
    c.setProperty("hazelcast.shutdownhook.enabled", "false");
    c.getJetConfig().setEnabled(false);

    NetworkConfig n = c.getNetworkConfig();
    String address = localAddress(bind.host());
    int port = fixedPort ? bind.port() : firstPort(address, bind.port(), join);
    n.setPort(port).setPortAutoIncrement(!fixedPort).setPortCount(WORKER_PORT_COUNT);
    n.getInterfaces().setEnabled(true).addInterface(address);
    JoinConfig j = n.getJoin();
    j.getMulticastConfig().setEnabled(false);
    j.getAutoDetectionConfig().setEnabled(false);
    TcpIpConfig tcp =
        j.getTcpIpConfig().setEnabled(true).setConnectionTimeoutSeconds(CONNECT_TIMEOUT_S);
    join.forEach(e -> tcp.addMember(resolved(e)));

    JavaSerializationFilterConfig filter = new JavaSerializationFilterConfig();
    filter.getWhitelist().addPrefixes("dev.schedlab.");
    c.getSerializationConfig().setJavaSerializationFilterConfig(filter);

    c.addExecutorConfig(new ExecutorConfig(CELLS, Math.max(1, jobs)).setStatisticsEnabled(false));
    c.addExecutorConfig(new ExecutorConfig(CONTROL, 2).setStatisticsEnabled(false));
    c.getMemberAttributeConfig().setAttribute(ROLE, role);
    c.getMemberAttributeConfig().setAttribute(JOBS, Integer.toString(jobs));
    c.getUserContext().put(MemberRuntime.KEY, runtime);
    return c;
  }

  /**
   * {@code e} with its host name resolved to an IP address: Hazelcast 5.7's TCP/IP joiner, given a
   * host name (a container network's alias), tries no connection at all and starts a cluster of its
   * own. An unknown name is kept as given, for Hazelcast to report.
   */
  static String resolved(Endpoint e) {
    try {
      InetAddress a = InetAddress.getByName(e.host());
      String ip = a.getHostAddress();
      return (a instanceof Inet6Address ? "[" + ip + "]" : ip) + ":" + e.port();
    } catch (UnknownHostException x) {
      return e.toString();
    }
  }

  /**
   * The first port a worker on {@code address} tries: {@code port}, or past the ports of the
   * members it joins on the same address, so that a worker started before its coordinator on one
   * machine never takes the coordinator's port.
   */
  static int firstPort(String address, int port, List<Endpoint> join) {
    int first = port;
    for (Endpoint e : join) {
      try {
        if (InetAddress.getByName(e.host()).getHostAddress().equals(address)
            && e.port() >= first
            && e.port() < first + WORKER_PORT_COUNT) {
          first = e.port() + 1;
        }
      } catch (UnknownHostException x) {
        // not this machine's address then
      }
    }
    return first;
  }

  /**
   * The IP address of {@code host}, which must be an address of this machine: a member listens on
   * that interface only.
   */
  static String localAddress(String host) throws ClusterException {
    InetAddress a;
    try {
      a = InetAddress.getByName(host);
    } catch (UnknownHostException e) {
      throw new ClusterException("--bind " + host + ": unknown host");
    }
    if (a.isAnyLocalAddress()) {
      throw new ClusterException(
          "--bind "
              + host
              + ": give one interface's address, not the"
              + " wildcard address (members listen on one interface only)");
    }
    try {
      if (!a.isLoopbackAddress() && NetworkInterface.getByInetAddress(a) == null) {
        throw new ClusterException(
            "--bind "
                + host
                + ": "
                + a.getHostAddress()
                + " is not an address of this machine; give the address of the interface on the"
                + " cluster's private network");
      }
    } catch (SocketException e) {
      throw new ClusterException(
          "--bind " + host + ": cannot list this machine's interfaces: " + e);
    }
    return a.getHostAddress();
  }
}
