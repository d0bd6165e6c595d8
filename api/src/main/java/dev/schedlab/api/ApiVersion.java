package dev.schedlab.api;

/**
 * The version of this API. Plugins declare the range they need in {@code plugin.requires}
 * (for example {@code >=1.0.0 & <2.0.0}); the host refuses a plugin whose range excludes it.
 * Binary-incompatible changes bump the major number.
 */
public final class ApiVersion {
  /** The API version this jar implements. */
  public static final String CURRENT = "1.2.0";

  private ApiVersion() {}
}
