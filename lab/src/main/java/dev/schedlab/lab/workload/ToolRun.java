package dev.schedlab.lab.workload;

/**
 * One tool of a scenario after expansion.
 *
 * @param id instance id ({@code cyclictest}, or {@code cyclictest#1} for a second one)
 * @param tool tool name
 * @param args the argument string as written
 * @param report its report
 */
public record ToolRun(String id, String tool, String args, ToolReport report) {}
