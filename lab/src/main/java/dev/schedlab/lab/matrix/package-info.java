/**
 * {@code schedlab matrix}: many independent runs over axes of workloads, machines, parameter
 * overrides, plugin sets and seeds.
 *
 * <p>{@link dev.schedlab.lab.matrix.MatrixFile} reads a matrix file into a {@link
 * dev.schedlab.lab.matrix.MatrixSpec}; {@link dev.schedlab.lab.matrix.MatrixPlan} expands it into
 * {@link dev.schedlab.lab.matrix.Cell}s (each with a stable run id); {@link
 * dev.schedlab.lab.matrix.MatrixRunner} runs the cells that {@link dev.schedlab.lab.matrix.CellLog}
 * does not already hold, in parallel, each one an ordinary single-threaded {@code Simulation.run};
 * {@link dev.schedlab.lab.matrix.MatrixSummary} writes the tables. The format is documented in
 * {@code docs/matrix.md}.
 */
package dev.schedlab.lab.matrix;
