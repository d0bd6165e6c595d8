package dev.schedlab.cluster;

import java.util.ArrayList;
import java.util.List;

/**
 * A member's address: {@code HOST[:PORT]} as given on the command line ({@code [ADDR]:PORT} for
 * IPv6).
 *
 * @param host host name or IP address
 * @param port TCP port
 */
public record Endpoint(String host, int port) {
  /** Hazelcast's usual member port, the default of {@code --bind} and {@code --join}. */
  public static final int DEFAULT_PORT = 5701;

  public Endpoint {
    if (host.isBlank()) {
      throw new IllegalArgumentException("empty host");
    }
    if (port < 1 || port > 65535) {
      throw new IllegalArgumentException("port " + port + " is not in 1..65535");
    }
  }

  /** Parses {@code HOST[:PORT]}; the port defaults to {@code defaultPort}. */
  public static Endpoint parse(String text, int defaultPort) throws ClusterException {
    String t = text.trim();
    String host = t;
    String port = null;
    if (t.startsWith("[")) {
      int close = t.indexOf(']');
      if (close < 0) {
        throw new ClusterException("address '" + text + "': missing ']' after the IPv6 address");
      }
      host = t.substring(1, close);
      if (t.length() > close + 1) {
        if (t.charAt(close + 1) != ':') {
          throw new ClusterException("address '" + text + "': expected [ADDRESS]:PORT");
        }
        port = t.substring(close + 2);
      }
    } else if (t.indexOf(':') >= 0 && t.indexOf(':') == t.lastIndexOf(':')) {
      host = t.substring(0, t.indexOf(':'));
      port = t.substring(t.indexOf(':') + 1);
    }
    try {
      return new Endpoint(host, port == null ? defaultPort : Integer.parseInt(port.trim()));
    } catch (IllegalArgumentException e) {
      throw new ClusterException(
          "address '" + text + "': expected HOST[:PORT] (" + e.getMessage() + ")");
    }
  }

  /** Parses a comma-separated list of {@code HOST[:PORT]}. */
  public static List<Endpoint> parseList(String text, int defaultPort) throws ClusterException {
    List<Endpoint> out = new ArrayList<>();
    for (String part : text.split(",", -1)) { // blank parts are skipped
      if (!part.isBlank()) {
        out.add(parse(part, defaultPort));
      }
    }
    if (out.isEmpty()) {
      throw new ClusterException("expected HOST:PORT[,HOST:PORT...], got '" + text + "'");
    }
    return out;
  }

  @Override
  public String toString() {
    return (host.contains(":") ? "[" + host + "]" : host) + ":" + port;
  }
}
