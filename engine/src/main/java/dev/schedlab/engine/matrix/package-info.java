/**
 * {@code schedlab matrix}: many independent runs over axes of workloads, machines, parameter
 * overrides, plugin sets and seeds.
 *
 * <p>{@link dev.schedlab.engine.matrix.MatrixFile} reads a matrix file into a
 * {@link dev.schedlab.engine.matrix.MatrixSpec}; {@link dev.schedlab.engine.matrix.MatrixPlan}
 * expands it into {@link dev.schedlab.engine.matrix.Cell}s (each with a stable run id);
 * {@link dev.schedlab.engine.matrix.MatrixRunner} runs the cells that
 * {@link dev.schedlab.engine.matrix.CellLog} does not already hold, in parallel, each one an
 * ordinary single-threaded {@code Simulation.run}; {@link dev.schedlab.engine.matrix.MatrixSummary}
 * writes the tables. The format is documented in {@code docs/matrix.md}.
 */
package dev.schedlab.engine.matrix;
