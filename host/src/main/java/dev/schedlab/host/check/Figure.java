package dev.schedlab.host.check;

/**
 * One compared figure of a check, with its tolerance (written down before measuring).
 *
 * @param name short name ({@code p50}, {@code usecs/op})
 * @param unit unit of the real and simulated values
 * @param tolerance how close the model must come
 */
public record Figure(String name, String unit, Tolerance tolerance) {}
