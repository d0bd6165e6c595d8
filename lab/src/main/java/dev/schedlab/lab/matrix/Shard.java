package dev.schedlab.lab.matrix;

import java.util.List;

/**
 * One share of a matrix: {@code --shard i/N} runs the cells whose index is {@code i-1} modulo
 * {@code N}. The N shares are disjoint and together hold every cell.
 *
 * @param index 1-based share number
 * @param count number of shares
 */
public record Shard(int index, int count) {
  /** The whole matrix. */
  public static final Shard ALL = new Shard(1, 1);

  public Shard {
    if (count < 1 || index < 1 || index > count) {
      throw new IllegalArgumentException(
          "shard must be i/N with 1 <= i <= N, got " + index + "/" + count);
    }
  }

  /** Parses {@code i/N}. */
  public static Shard parse(String text) {
    String[] p = text.trim().split("/", -1);
    try {
      if (p.length == 2) {
        return new Shard(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()));
      }
    } catch (NumberFormatException e) {
      // fall through
    }
    throw new IllegalArgumentException("shard must be i/N (for example 2/4), got '" + text + "'");
  }

  /** Whether {@code cell} belongs to this share. */
  public boolean contains(Cell cell) {
    return cell.index() % count == index - 1;
  }

  /** The cells of {@code all} that belong to this share, in order. */
  public List<Cell> of(List<Cell> all) {
    return all.stream().filter(this::contains).toList();
  }

  @Override
  public String toString() {
    return index + "/" + count;
  }
}
