package dev.schedlab.report.chart;

/**
 * One drawn chart of the page.
 *
 * @param kind what it shows (a CSS/test hook: timeline, percentiles, histogram, bars, ...)
 * @param title heading shown above it
 * @param svg the drawing
 * @param note how to read it (shown below), or empty
 */
public record Chart(String kind, String title, String svg, String note) {}
